// CUDA's math_constants.h: HIP has hip/hip_math_constants.h from ROCm 5.3 on (the double names
// from 5.7); for HIP 5.2 the include becomes Ferry's compat header ferry/compat/math_constants.h,
// which defines the HIP names with CUDA's values.
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void gauss(const float* x, float* y, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float m = v != v ? CUDART_NAN_F : (v > 1e30f ? CUDART_INF_F : v);
  y[i] = expf(-0.5f * m * m) / sqrtf(2.0f * CUDART_PI_F);
  d[i] = CUDART_SQRT_2PI * CUDART_LN2 + (i & CUDART_REMQUO_MASK_F) - CUDART_INF;
}

int main() {
  float *x, *y;
  double* d;
  cudaMalloc(&x, 64 * sizeof(float));
  cudaMalloc(&y, 64 * sizeof(float));
  cudaMalloc(&d, 64 * sizeof(double));
  gauss<<<1, 64>>>(x, y, d, 64);
  cudaDeviceSynchronize();
  return cudaFree(x) == cudaSuccess ? 0 : 1;
}
