// Half-precision maximum and minimum: HIP has __hmax/__hmin (and the _nan forms) from ROCm 5.5
// on; for HIP 5.2 the output includes Ferry's compat header ferry/compat/fp16.h.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void clamp_relu(const __half* x, __half* y, __half* lo_seen, __half cap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half zero = __float2half(0.0f);
  y[i] = __hmin(__hmax(x[i], zero), cap);
  lo_seen[i] = __hmin_nan(x[i], __hmax_nan(x[i], zero));
}

int main() {
  __half *x, *y, *lo;
  cudaMalloc(&x, 256 * sizeof(__half));
  cudaMalloc(&y, 256 * sizeof(__half));
  cudaMalloc(&lo, 256 * sizeof(__half));
  clamp_relu<<<1, 256>>>(x, y, lo, __float2half(6.0f), 256);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  cudaFree(lo);
  return 0;
}
