// Written for CUDA 12.4 (--cuda-version 12.4): clockRate and the device-id prefetch still exist there.
#include <hip/hip_runtime.h>
#include <cstdio>

static void print_one(const hipDeviceProp_t& p, const hipDeviceProp_t* q) {
  std::printf("%s: %d kHz core, %d kHz memory, mode %d\n", p.name, p.clockRate, p.memoryClockRate,
              p.computeMode);
  std::printf("arch %s (%d), LDS per CU %zu, timer %d kHz\n", p.gcnArchName, p.gcnArch,
              p.maxSharedMemoryPerMultiProcessor, q->clockInstructionRate);
  std::printf("watchdog %d, overlap %d\n", q->kernelExecTimeoutEnabled, p.deviceOverlap);
}

int main() {
  int n = 0;
  hipGetDeviceCount(&n);
  hipDeviceProp_t props[4];
  for (int d = 0; d < n && d < 4; ++d) {
    hipGetDeviceProperties(&props[d], d);
    print_one(props[d], &props[d]);
    if (props[d].clockRate == 0) return 1;
  }
  return 0;
}

void prefetch(float* p, size_t n, int dev, hipStream_t s) { hipMemPrefetchAsync(p, n * sizeof(float), dev, s); }
