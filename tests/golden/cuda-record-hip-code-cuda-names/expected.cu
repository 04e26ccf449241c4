// HIP code that holds CUDA code for NVIDIA builds (written for this test): HIP -> CUDA keeps the
// CUDA names and records them, so that HIP -> CUDA -> HIP gives the file back as written.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) return 1;
#if 1 /* ferry: #ifdef __HIP_PLATFORM_NVIDIA__, defined on NVIDIA */
  size_t val = 0;
  cudaDeviceGetLimit /* ferry-hip: cudaDeviceGetLimit */(&val, cudaLimitStackSize /* ferry-hip: cudaLimitStackSize */);
  printf("stack: %zu bytes/thread\n", val);
  cudaDeviceGetLimit /* ferry-hip: cudaDeviceGetLimit */(&val, cudaLimitMallocHeapSize /* ferry-hip: cudaLimitMallocHeapSize */);
#endif
  printf("free: %zu of %zu\n", free, total);
  return 0;
}
