// Variable-length arrays with an initializer Ferry cannot move: a class type, a non-zero value.
#include <cuda_runtime.h>

void other(int n, int m) {
  dim3 blocks[n] = {};
  int ones[m] = {1, 1};
  (void)blocks;
  (void)ones;
}
