// Device properties: fields CUDA 13 removed (read through cudaDeviceGetAttribute) and HIP's own.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

static void print_one(const cudaDeviceProp& p, const cudaDeviceProp* q) {
  std::printf("%s: %d kHz core, %d kHz memory, mode %d\n", p.name, ferry::cuda_compat::device_attribute(p, cudaDevAttrClockRate), ferry::cuda_compat::device_attribute(p, cudaDevAttrMemoryClockRate),
              ferry::cuda_compat::device_attribute(p, cudaDevAttrComputeMode));
  std::printf("arch %s (%d), LDS per CU %zu, timer %d kHz\n", ferry::cuda_compat::arch_name(p), (p.major * 10 + p.minor),
              p.sharedMemPerMultiprocessor, ferry::cuda_compat::device_attribute(*q, cudaDevAttrClockRate));
  std::printf("watchdog %d, overlap %d\n", ferry::cuda_compat::device_attribute(*q, cudaDevAttrKernelExecTimeout), ferry::cuda_compat::device_attribute(p, cudaDevAttrGpuOverlap));
}

int main() {
  int n = 0;
  cudaGetDeviceCount(&n);
  cudaDeviceProp props[4];
  for (int d = 0; d < n && d < 4; ++d) {
    cudaGetDeviceProperties(&props[d], d);
    print_one(props[d], &props[d]);
    if (ferry::cuda_compat::device_attribute(props[d], cudaDevAttrClockRate) == 0) return 1;
  }
  return 0;
}
