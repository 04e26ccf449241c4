// HIP code that holds CUDA code for NVIDIA builds (written for this test): HIP -> CUDA keeps the
// CUDA names and records them, so that HIP -> CUDA -> HIP gives the file back as written.
#include <hip/hip_runtime.h>

#include <cstdio>

int main() {
  size_t free = 0, total = 0;
  if (hipMemGetInfo(&free, &total) != hipSuccess) return 1;
#ifdef __HIP_PLATFORM_NVIDIA__
  size_t val = 0;
  cudaDeviceGetLimit(&val, cudaLimitStackSize);
  printf("stack: %zu bytes/thread\n", val);
  cudaDeviceGetLimit(&val, cudaLimitMallocHeapSize);
#endif
  printf("free: %zu of %zu\n", free, total);
  return 0;
}
