// What HIP has and CUDA does not: float atomicMax/atomicMin, vector and complex constructors,
// lane masks, OCP FP8, hipBLAS's own types and ILP64 routines.
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hipblas/hipblas.h>

__global__ void extremes(const float* x, int n, float* hi, float* lo, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMax(hi, x[i]);
  atomicMin(lo, x[i]);
  atomicMax(count, i);
}

__global__ void lanes(unsigned long long* below, float4* v, float2* w, float s) {
  below[threadIdx.x] = __lanemask_lt();
  v[threadIdx.x] = float4(s);
  w[threadIdx.x] = float2(s, 2.0f * s);
}

__global__ void to_fp8(const float* x, __hip_fp8_storage_t* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hip_cvt_float_to_fp8(x[i], __HIP_SATFINITE, __HIP_E4M3);
}

hipblasStatus_t batched(hipblasHandle_t h, int n, const hipblasComplex* a, hipblasComplex* b, int64_t big) {
  const hipblasComplex alpha = hipblasComplex(1.0f, 0.0f);
  const hipblasStride stride = static_cast<hipblasStride>(n) * n;
  (void)stride;
  hipblasStatus_t st = hipblasCaxpy(h, n, &alpha, a, 1, b, 1);
  if (st != HIPBLAS_STATUS_SUCCESS) return st;
  float r = 0.0f;
  const float* xf = reinterpret_cast<const float*>(a);
  return hipblasSnrm2_64(h, big, xf, 1, &r);
}
