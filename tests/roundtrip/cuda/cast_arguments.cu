// Casts the CUDA -> HIP migration adds where HIP takes void pointers (issue #28, class 9): each is
// recorded, so the way back gives the arguments as written.
#include <cuda_runtime.h>
#include <cstdio>

template <typename T>
__global__ void scale(T *data, T by) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= by;
}

__global__ void fill(float *data) { data[threadIdx.x] = 1.0f; }

int main() {
  cudaFuncAttributes attrs;
  cudaFuncGetAttributes(&attrs, fill);
  cudaFuncGetAttributes(&attrs, scale<double>);
  cudaFuncSetCacheConfig(scale<float>, cudaFuncCachePreferL1);

  float *pitched = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&pitched, &pitch, 64 * sizeof(float), 8);
  cudaMallocPitch((void **)&pitched, &pitch, 32 * sizeof(float), 4);

  float *host = nullptr, *mapped = nullptr;
  cudaHostAlloc((void **)&host, 256, cudaHostAllocMapped);
  cudaHostGetDevicePointer((void **)&mapped, (void *)host, 0);
  std::printf("%d %zu %p\n", attrs.numRegs, pitch, (void *)mapped);
  return 0;
}
