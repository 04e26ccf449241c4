// The same names as hip-version-missing-5.2, for ROCm 6.2, which has them all.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>

void setup(int* devices, int count) {
  hipSetValidDevices(devices, count);          // hipSetValidDevices: ROCm 6.2
  hipDeviceSetLimit(hipLimitStackSize, 4096);  // hipDeviceSetLimit: ROCm 5.3
  hipStream_t s = hipStreamLegacy;            // hipStreamLegacy: ROCm 6.2
  hipStreamSynchronize(s);                     // in every HIP: converted
}
