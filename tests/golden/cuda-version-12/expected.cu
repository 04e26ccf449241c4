// Written for CUDA 12.4 (--cuda-version 12.4): clockRate and the device-id prefetch still exist there.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

static void print_one(const cudaDeviceProp& p, const cudaDeviceProp* q) {
  std::printf("%s: %d kHz core, %d kHz memory, mode %d\n", p.name, p.clockRate, p.memoryClockRate,
              p.computeMode);
  std::printf("arch %s (%d), LDS per CU %zu, timer %d kHz\n", ferry::cuda_compat::arch_name(p), (p.major * 10 + p.minor),
              p.sharedMemPerMultiprocessor, ferry::cuda_compat::device_attribute(*q, cudaDevAttrClockRate));
  std::printf("watchdog %d, overlap %d\n", q->kernelExecTimeoutEnabled, p.deviceOverlap);
}

int main() {
  int n = 0;
  cudaGetDeviceCount(&n);
  cudaDeviceProp props[4];
  for (int d = 0; d < n && d < 4; ++d) {
    cudaGetDeviceProperties(&props[d], d);
    print_one(props[d], &props[d]);
    if (props[d].clockRate == 0) return 1;
  }
  return 0;
}

void prefetch(float* p, size_t n, int dev, cudaStream_t s) { cudaMemPrefetchAsync(p, n * sizeof(float), dev, s); }
