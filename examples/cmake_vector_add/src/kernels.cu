#include "kernels.cuh"

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

cudaError_t vector_add(const float* a, const float* b, float* c, int n) {
  const int threads = 256;
  add_kernel<<<(n + threads - 1) / threads, threads>>>(a, b, c, n);
  return cudaGetLastError();
}
