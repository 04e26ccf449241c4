// HIP runtime names that the CUDA runtime and the driver API both reach: the way back takes the
// runtime's spelling, whose types (cudaError_t, cudaStream_t, cudaSharedMemConfig) are HIP's, also
// when the runtime name is deprecated in CUDA or its CUDA signature changed.
#include <cuda_profiler_api.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>

cudaError_t capture_id(cudaStream_t stream, unsigned long long *id) {
  cudaStreamCaptureStatus status;
  return cudaStreamGetCaptureInfo(stream, &status, id);  // CUDA 11's three-argument form
}

bool profiler_busy(cudaError_t e) {
  return e == cudaErrorProfilerAlreadyStarted || e == cudaErrorProfilerAlreadyStopped ||
         e == cudaErrorProfilerNotInitialized;
}

__global__ void touch(float *p) { p[threadIdx.x] += 1.0f; }

void profile_wide_banks() {
  cudaSharedMemConfig old;
  cudaDeviceGetSharedMemConfig(&old);
  cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
  cudaFuncSetSharedMemConfig(reinterpret_cast<const void *>(touch), cudaSharedMemBankSizeFourByte);
  cudaProfilerStart();
  cudaProfilerStop();
  cudaDeviceSetSharedMemConfig(old);
}
