#include <cuda_runtime.h>

__constant__ int coefficients[64];

__global__ void scale(float *out, size_t pitch, int width) {
  extern __shared__ float row[];
  row[threadIdx.x] = coefficients[threadIdx.x % 64];
  out[blockIdx.x * pitch / sizeof(float) + threadIdx.x] = row[threadIdx.x] * width;
}

cudaError_t setup(const int *host, float **image, size_t *pitch, int width, int height) {
  cudaError_t err = cudaMemcpyToSymbol(
      coefficients, host, 64 * sizeof(int), 0, cudaMemcpyHostToDevice);
  if (err != cudaSuccess) return err;
  err = cudaFuncSetAttribute(
      scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  if (err != cudaSuccess) return err;
  return cudaMallocPitch(image,
                         pitch,
                         width * sizeof(float), height);
}
