// cuBLAS ILP64 (_64) routines and rocBLAS-typed arguments under --blas=rocblas for ROCm 6.2:
// rocblas_sgemv_64 and rocblas_set_matrix_64 exist there, rocblas_ssymm_64 only from 6.3.
#include <cstdint>
#include <cublas_v2.h>
#include <cuda_fp16.h>

cublasStatus_t big(cublasHandle_t h, int64_t n, const float* hA, float* A, const float* x, float* y) {
  const float one = 1.f, zero = 0.f;
  cublasStatus_t st = cublasSetMatrix_64(n, n, sizeof(float), hA, n, A, n);
  if (st != CUBLAS_STATUS_SUCCESS) return st;
  st = cublasSgemv_64(h, CUBLAS_OP_N, n, n, &one, A, n, x, 1, &zero, y, 1);
  if (st == CUBLAS_STATUS_NOT_SUPPORTED) return st;
  return cublasSsymm_64(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, n, n, &one, A, n, A, n, &zero, A, n);
}

cublasStatus_t half_gemm(cublasHandle_t h, int n, const __half* alpha, const __half* A, __half* C) {
  return cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, alpha, A, n, A, n, alpha, C, n);
}
