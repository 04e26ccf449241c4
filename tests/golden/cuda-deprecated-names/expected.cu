// HIP's deprecated spellings that real code still uses.
#include <cuda_runtime.h>

__constant__ float coeff[4];

int main() {
  float* pinned = nullptr;
  float* mapped = nullptr;
  float* legacy = nullptr;
  cudaMallocHost((void**)&pinned, 64 * sizeof(float));
  cudaMallocHost((void**)&mapped, 64 * sizeof(float), cudaHostAllocMapped | cudaHostAllocDefault);
  cudaMallocHost((void**)&legacy, 64 * sizeof(float));
  const float h[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeff, h, sizeof(h));
  cudaMemcpyToSymbol(coeff, h, sizeof(h), 0, cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
  cudaFreeHost(pinned);
  cudaFreeHost(mapped);
  cudaFreeHost(legacy);
  return 0;
}
