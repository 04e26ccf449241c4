// hipBLAS's ILP64 API (64-bit sizes): cuBLAS has the same routines with _64 (CUDA 12 and newer).
#include <hipblas/hipblas.h>
#include <cstdint>

hipblasStatus_t dots(hipblasHandle_t h, int64_t n, const float* x, const float* y, float* r) {
  hipblasStatus_t s = hipblasSdot_64(h, n, x, 1, y, 1, r);
  if (s != HIPBLAS_STATUS_SUCCESS) return s;
  s = hipblasDotEx_64(h, n, x, HIP_R_32F, 1, y, HIP_R_32F, 1, r, HIP_R_32F, HIP_R_32F);
  if (s != HIPBLAS_STATUS_SUCCESS) return s;
  return hipblasSaxpy_64(h, n, r, x, 1, const_cast<float*>(y), 1);
}
