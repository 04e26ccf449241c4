// What HIP has and CUDA does not: float atomicMax/atomicMin, vector and complex constructors,
// lane masks, OCP FP8, hipBLAS's own types and ILP64 routines.
#include "ferry/compat_cuda.h"
#include <cuda_runtime.h>
#include <cuda_fp8.h>
#include <cublas_v2.h>

__global__ void extremes(const float* x, int n, float* hi, float* lo, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ferry::cuda_compat::atomicMax(hi, x[i]);
  ferry::cuda_compat::atomicMin(lo, x[i]);
  atomicMax(count, i);
}

__global__ void lanes(unsigned long long* below, float4* v, float2* w, float s) {
  below[threadIdx.x] = ferry::cuda_compat::lanemask_lt();
  v[threadIdx.x] = make_float4(s, s, s, s);
  w[threadIdx.x] = make_float2(s, 2.0f * s);
}

__global__ void to_fp8(const float* x, __nv_fp8_storage_t* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __nv_cvt_float_to_fp8(x[i], __NV_SATFINITE, __NV_E4M3);
}

cublasStatus_t batched(cublasHandle_t h, int n, const cuComplex* a, cuComplex* b, int64_t big) {
  const cuComplex alpha = make_cuComplex(1.0f, 0.0f);
  const int64_t stride = static_cast<int64_t>(n) * n;
  (void)stride;
  cublasStatus_t st = cublasCaxpy(h, n, &alpha, a, 1, b, 1);
  if (st != CUBLAS_STATUS_SUCCESS) return st;
  float r = 0.0f;
  const float* xf = reinterpret_cast<const float*>(a);
  return cublasSnrm2_64(h, big, xf, 1, &r);
}
