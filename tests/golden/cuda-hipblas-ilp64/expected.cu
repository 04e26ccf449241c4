// hipBLAS's ILP64 API (64-bit sizes): cuBLAS has the same routines with _64 (CUDA 12 and newer).
#include <cublas_v2.h>
#include <cstdint>

cublasStatus_t dots(cublasHandle_t h, int64_t n, const float* x, const float* y, float* r) {
  cublasStatus_t s = cublasSdot_64(h, n, x, 1, y, 1, r);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  s = cublasDotEx_64(h, n, x, CUDA_R_32F, 1, y, CUDA_R_32F, 1, r, CUDA_R_32F, CUDA_R_32F);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  return cublasSaxpy_64(h, n, r, x, 1, const_cast<float*>(y), 1);
}
