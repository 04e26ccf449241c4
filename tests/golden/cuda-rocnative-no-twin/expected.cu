// ROCm library calls with no same-shape CUDA twin are reported and left as written: rocSOLVER's
// syev (cuSOLVER's syevd writes no off-diagonal E), a rocSPARSE routine CUDA 12 removed, a staged
// call whose stage is not a literal, and a rocsparse_mat_info two algorithms share.
#include "ferry/compat_cusparse.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>

void eigenvalues(cublasHandle_t blas, int n, double* A, double* D, double* E, int* info) {
  rocsolver_dsyev(blas, rocblas_evect_none, CUBLAS_FILL_MODE_UPPER, n, A, n, D, E, info);
}

void product(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int nnz,
             const double* val, const int* row_ptr, const int* col_ind, const double* x,
             double* y, cusparseSpMatDescr_t A, cusparseDnVecDescr_t vx, cusparseDnVecDescr_t vy,
             rocsparse_spmv_stage stage, size_t* size, void* buffer) {
  const double alpha = 1.0, beta = 0.0;
  rocsparse_mat_info info;
  rocsparse_create_mat_info(&info);
  ferry::cusparse_compat::csrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, m, nnz, &alpha, descr, val, row_ptr, col_ind, x, &beta,
                   y);
  rocsparse_dcsrsv_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, row_ptr, col_ind, info,
                            0, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  rocsparse_destroy_mat_info(info);
  rocsparse_spmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_64F,
                 CUSPARSE_SPMV_ALG_DEFAULT, stage, size, buffer);
}
