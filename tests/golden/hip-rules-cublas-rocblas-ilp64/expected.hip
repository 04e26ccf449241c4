// cuBLAS ILP64 (_64) routines and rocBLAS-typed arguments under --blas=rocblas for ROCm 6.2:
// rocblas_sgemv_64 and rocblas_set_matrix_64 exist there, rocblas_ssymm_64 only from 6.3.
#include <cstdint>
#include <rocblas/rocblas.h>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>

rocblas_status big(rocblas_handle h, int64_t n, const float* hA, float* A, const float* x, float* y) {
  const float one = 1.f, zero = 0.f;
  rocblas_status st = rocblas_set_matrix_64(n, n, sizeof(float), hA, n, A, n);
  if (st != rocblas_status_success) return st;
  st = rocblas_sgemv_64(h, rocblas_operation_none, n, n, &one, A, n, x, 1, &zero, y, 1);
  if (st == rocblas_status_not_implemented) return st;
  return cublasSsymm_64(h, rocblas_side_left, rocblas_fill_upper, n, n, &one, A, n, A, n, &zero, A, n);
}

rocblas_status half_gemm(rocblas_handle h, int n, const __half* alpha, const __half* A, __half* C) {
  return rocblas_hgemm(h, rocblas_operation_none, rocblas_operation_transpose, n, n, n, alpha, A, n, A, n, alpha, C, n);
}
