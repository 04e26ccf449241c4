// FP8 storage and conversions (cuda_fp8.h's C API): no HIP release has them under these names, so
// the include becomes Ferry's compat header ferry/compat/fp8.h (OCP E4M3/E5M2, CUDA's rounding,
// saturation and NaN rules). (The C++ classes: hip-version-fp8-class.)
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include "ferry/compat/fp8.h"
/* ferry-cuda: #include <cuda_runtime.h> */

__device__ __half sum_e4m3(const __nv_fp8_storage_t* v, int n) {
  __half s = __nv_cvt_fp8_to_halfraw(v[0], __NV_E4M3);
  for (int k = 1; k < n; ++k) s = __hadd(s, __nv_cvt_fp8_to_halfraw(v[k], __NV_E4M3));
  return s;
}

__global__ void quantize(const float* x, __nv_fp8_storage_t* q, __nv_fp8x2_storage_t* q2, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  q[i] = i < n - 1 ? __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E4M3)
                   : __nv_cvt_float_to_fp8(0.0f, __NV_NOSAT, __NV_E5M2);
  q2[i] = __nv_cvt_float2_to_fp8x2(make_float2(x[i], -x[i]), __NV_SATFINITE, __NV_E5M2);
  y[i] = __half2float(sum_e4m3(q, i + 1));
}

int main() {
  float *x, *y;
  __nv_fp8_storage_t* q;
  __nv_fp8x2_storage_t* q2;
  hipMalloc(&x, 256 * sizeof(float));
  hipMalloc(&y, 256 * sizeof(float));
  hipMalloc(&q, 256);
  hipMalloc(&q2, 256 * sizeof(__nv_fp8x2_storage_t));
  quantize<<<1, 256>>>(x, q, q2, y, 256);
  hipDeviceSynchronize();
  hipFree(x);
  hipFree(y);
  hipFree(q);
  hipFree(q2);
  return 0;
}
