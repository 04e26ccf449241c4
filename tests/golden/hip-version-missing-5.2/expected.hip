// Names HIP 5.2 does not have: left as they are, with FRY1301 saying which ROCm has them.
#include <hip/hip_runtime.h>
#include <cufftXt.h>

void setup(int* devices, int count) {
  cudaSetValidDevices(devices, count);          // hipSetValidDevices: ROCm 6.2
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);  // hipDeviceSetLimit: ROCm 5.3
  hipStream_t s = cudaStreamLegacy;            // hipStreamLegacy: ROCm 6.2
  hipStreamSynchronize(s);                     // in every HIP: converted
}
