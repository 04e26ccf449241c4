// HIP launches: hipLaunchKernelGGL with plain, templated and parenthesised kernels.
#include <hip/hip_runtime.h>

template <typename T, int N>
__global__ void scale(T* x, T a, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) x[i] *= a * N;
}

__global__ void fill(float* x, float v, int n) {
  HIP_DYNAMIC_SHARED(float, tile)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = v;
  if (i < n) x[i] = tile[threadIdx.x];
}

__constant__ float kBias;

int run(float* d, int n, hipStream_t stream) {
  float bias = 1.f;
  hipMemcpyToSymbol(HIP_SYMBOL(kBias), &bias, sizeof bias);
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 256 * sizeof(float), stream, d, 2.f, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 2>), dim3(1), dim3(n), 0, 0, d, 0.5f, n);
  hipLaunchKernelGGL((scale<float, 4>), 1, n, 0, hipStreamDefault == 0 ? stream : 0, d, 1.f, n);
  if (hipGetLastError() != hipSuccess) return 1;
  return hipStreamSynchronize(stream) == hipSuccess ? 0 : 1;
}
