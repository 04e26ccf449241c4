// The same names as hip-version-missing-5.2, for ROCm 6.2, which has them all.
#include <cuda_runtime.h>
#include <cuda_fp8.h>

void setup(int* devices, int count) {
  cudaSetValidDevices(devices, count);          // hipSetValidDevices: ROCm 6.2
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);  // hipDeviceSetLimit: ROCm 5.3
  cudaStream_t s = cudaStreamLegacy;            // hipStreamLegacy: ROCm 6.2
  cudaStreamSynchronize(s);                     // in every HIP: converted
}
