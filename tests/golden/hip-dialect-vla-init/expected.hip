// Variable-length arrays with an initializer: GCC (nvcc's host compiler) accepts them, clang does not.
#include <hip/hip_runtime.h>

void zeroed(int numPlanes, const float *src) {
  hipSurfaceObject_t surf[numPlanes] /* ferry-cuda:  = {0}; */; __builtin_memset(surf, 0, sizeof(surf));
  float *ptrs[numPlanes] /* ferry-cuda:  = {}; */; __builtin_memset(ptrs, 0, sizeof(ptrs));
  unsigned int counts[numPlanes] /* ferry-cuda:  = {0}; */; __builtin_memset(counts, 0, sizeof(counts));
  for (int i = 0; i < numPlanes; ++i) counts[i] += surf[i] != 0 && ptrs[i] == src;
}

void constant_bound() {
  const int k = 4;
  int fixed[k] = {0};
  (void)fixed;
}
