#include <cuda_runtime.h>

#include "saxpy.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void launch_saxpy(int n, float a, const float* x, float* y) {
  saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
  cudaDeviceSynchronize();
}
