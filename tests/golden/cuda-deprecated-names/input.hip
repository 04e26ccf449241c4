// HIP's deprecated spellings that real code still uses.
#include <hip/hip_runtime.h>

__constant__ float coeff[4];

int main() {
  float* pinned = nullptr;
  float* mapped = nullptr;
  float* legacy = nullptr;
  hipMallocHost((void**)&pinned, 64 * sizeof(float));
  hipHostMalloc((void**)&mapped, 64 * sizeof(float), hipHostMallocMapped | hipHostMallocCoherent);
  hipMemAllocHost((void**)&legacy, 64 * sizeof(float));
  const float h[4] = {1, 2, 3, 4};
  hipMemcpyToSymbol(coeff, h, sizeof(h));
  hipMemcpyToSymbol(HIP_SYMBOL(coeff), h, sizeof(h), 0, hipMemcpyHostToDevice);
  hipCtxSynchronize();
  hipFreeHost(pinned);
  hipHostFree(mapped);
  hipHostFree(legacy);
  return 0;
}
