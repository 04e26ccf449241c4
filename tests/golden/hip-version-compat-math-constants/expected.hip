// CUDA's math_constants.h: HIP has hip/hip_math_constants.h from ROCm 5.3 on (the double names
// from 5.7); for HIP 5.2 the include becomes Ferry's compat header ferry/compat/math_constants.h,
// which defines the HIP names with CUDA's values.
#include <hip/hip_runtime.h>
#include "ferry/compat/math_constants.h"

__global__ void gauss(const float* x, float* y, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float m = v != v ? HIP_NAN_F : (v > 1e30f ? HIP_INF_F : v);
  y[i] = expf(-0.5f * m * m) / sqrtf(2.0f * HIP_PI_F);
  d[i] = HIP_SQRT_2PI * HIP_LN2 + (i & HIP_REMQUO_MASK_F) - HIP_INF;
}

int main() {
  float *x, *y;
  double* d;
  hipMalloc(&x, 64 * sizeof(float));
  hipMalloc(&y, 64 * sizeof(float));
  hipMalloc(&d, 64 * sizeof(double));
  gauss<<<1, 64>>>(x, y, d, 64);
  hipDeviceSynchronize();
  return hipFree(x) == hipSuccess ? 0 : 1;
}
