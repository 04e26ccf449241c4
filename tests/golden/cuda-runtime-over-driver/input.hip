// HIP runtime names that the CUDA runtime and the driver API both reach: the way back takes the
// runtime's spelling, whose types (cudaError_t, cudaStream_t, cudaSharedMemConfig) are HIP's, also
// when the runtime name is deprecated in CUDA or its CUDA signature changed.
#include <hip/hip_runtime.h>

hipError_t capture_id(hipStream_t stream, unsigned long long *id) {
  hipStreamCaptureStatus status;
  return hipStreamGetCaptureInfo(stream, &status, id);  // CUDA 11's three-argument form
}

bool profiler_busy(hipError_t e) {
  return e == hipErrorProfilerAlreadyStarted || e == hipErrorProfilerAlreadyStopped ||
         e == hipErrorProfilerNotInitialized;
}

__global__ void touch(float *p) { p[threadIdx.x] += 1.0f; }

void profile_wide_banks() {
  hipSharedMemConfig old;
  hipDeviceGetSharedMemConfig(&old);
  hipDeviceSetSharedMemConfig(hipSharedMemBankSizeEightByte);
  hipFuncSetSharedMemConfig(reinterpret_cast<const void *>(touch), hipSharedMemBankSizeFourByte);
  hipProfilerStart();
  hipProfilerStop();
  hipDeviceSetSharedMemConfig(old);
}
