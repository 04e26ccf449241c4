// A source that switches on its build's define, as a project with one code base for CUDA and HIP
// does: the HIP build defines APP_USE_HIP; without it the CUDA-only header is included.
#include <cstdio>
#if !defined(APP_USE_HIP)
#include "cuda_only_support.h"  // not in the tree: only the CUDA build's toolkit has it
#endif

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  std::puts("ok");
  return 0;
}
