// ROCm library calls with no same-shape CUDA twin are reported and left as written: rocSOLVER's
// syev (cuSOLVER's syevd writes no off-diagonal E), a rocSPARSE routine CUDA 12 removed, a staged
// call whose stage is not a literal, and a rocsparse_mat_info two algorithms share.
#include <hip/hip_runtime.h>
#include <rocsolver/rocsolver.h>
#include <rocsparse/rocsparse.h>

void eigenvalues(rocblas_handle blas, rocblas_int n, double* A, double* D, double* E, rocblas_int* info) {
  rocsolver_dsyev(blas, rocblas_evect_none, rocblas_fill_upper, n, A, n, D, E, info);
}

void product(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int m, rocsparse_int nnz,
             const double* val, const rocsparse_int* row_ptr, const rocsparse_int* col_ind, const double* x,
             double* y, rocsparse_spmat_descr A, rocsparse_dnvec_descr vx, rocsparse_dnvec_descr vy,
             rocsparse_spmv_stage stage, size_t* size, void* buffer) {
  const double alpha = 1.0, beta = 0.0;
  rocsparse_mat_info info;
  rocsparse_create_mat_info(&info);
  rocsparse_dcsrmv(handle, rocsparse_operation_none, m, m, nnz, &alpha, descr, val, row_ptr, col_ind, info, x, &beta,
                   y);
  rocsparse_dcsrsv_analysis(handle, rocsparse_operation_none, m, nnz, descr, val, row_ptr, col_ind, info,
                            rocsparse_analysis_policy_reuse, rocsparse_solve_policy_auto, buffer);
  rocsparse_destroy_mat_info(info);
  rocsparse_spmv(handle, rocsparse_operation_none, &alpha, A, vx, &beta, vy, rocsparse_datatype_f64_r,
                 rocsparse_spmv_alg_default, stage, size, buffer);
}
