// Variable-length arrays with an initializer: GCC (nvcc's host compiler) accepts them, clang does not.
#include <cuda_runtime.h>

void zeroed(int numPlanes, const float *src) {
  cudaSurfaceObject_t surf[numPlanes] = {0};
  float *ptrs[numPlanes] = {};
  unsigned int counts[numPlanes] = {0};
  for (int i = 0; i < numPlanes; ++i) counts[i] += surf[i] != 0 && ptrs[i] == src;
}

void constant_bound() {
  const int k = 4;
  int fixed[k] = {0};
  (void)fixed;
}
