// HIP launches: hipLaunchKernelGGL with plain, templated and parenthesised kernels.
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a * N;
}

__global__ void fill(float* x, float v, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = v;
  if (i < n) x[i] = tile[threadIdx.x];
}

__constant__ float kBias;

int run(float* d, int n, cudaStream_t stream) {
  float bias = 1.f;
  cudaMemcpyToSymbol(kBias, &bias, sizeof bias);
  fill<<<dim3((n + 255) / 256), dim3(256), 256 * sizeof(float), stream>>>(d, 2.f, n);
  scale<float, 2><<<dim3(1), dim3(n), 0, 0>>>(d, 0.5f, n);
  scale<float, 4><<<1, n, 0, cudaStreamDefault == 0 ? stream : 0>>>(d, 1.f, n);
  if (cudaGetLastError() != cudaSuccess) return 1;
  return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}
