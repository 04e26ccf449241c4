// Unified memory hints: CUDA 13 takes a cudaMemLocation where HIP takes a device id.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>

void hints(float* data, size_t n, int device, cudaStream_t stream) {
  cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetReadMostly, ferry::cuda_compat::mem_location(device));
  cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, ferry::cuda_compat::mem_location(cudaCpuDeviceId));
  cudaMemPrefetchAsync(data, n * sizeof(float), ferry::cuda_compat::mem_location(device), 0, stream);
  cudaMemPrefetchAsync(data, n * sizeof(float), ferry::cuda_compat::mem_location(cudaCpuDeviceId), 0);
}
