// Unified memory hints: CUDA 13 takes a cudaMemLocation where HIP takes a device id.
#include <hip/hip_runtime.h>

void hints(float* data, size_t n, int device, hipStream_t stream) {
  hipMemAdvise(data, n * sizeof(float), hipMemAdviseSetReadMostly, device);
  hipMemAdvise(data, n * sizeof(float), hipMemAdviseSetPreferredLocation, hipCpuDeviceId);
  hipMemPrefetchAsync(data, n * sizeof(float), device, stream);
  hipMemPrefetchAsync(data, n * sizeof(float), hipCpuDeviceId);
}
