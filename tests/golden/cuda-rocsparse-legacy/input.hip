// rocSPARSE's legacy API (BSR triangular solve, BSR and CSR products, ILU(0), CSR to dense) on the way to
// cuSPARSE: one rocsparse_mat_info type against cuSPARSE's info per algorithm, the analysis policy
// cuSPARSE has no twin of, statuses cuSPARSE never returns, and csr2dense, which CUDA 12 removed.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

#include <cstdio>

#define CHECK(expr)                                                   \
  do {                                                                \
    const rocsparse_status status_ = (expr);                          \
    if (status_ != rocsparse_status_success) {                        \
      std::printf("%s at line %d\n", status_name(status_), __LINE__); \
      return 1;                                                       \
    }                                                                 \
  } while (0)

const char* status_name(rocsparse_status status) {
  switch (status) {
    case rocsparse_status_success: return "success";
    case rocsparse_status_invalid_handle: return "invalid handle";
    case rocsparse_status_zero_pivot: return "zero pivot";
    case rocsparse_status_thrown_exception:
      return "thrown exception";
#if ROCSPARSE_VERSION_MAJOR >= 3
    case rocsparse_status_continue: return "continue";
#endif
    default: return "other status";
  }
}

// y = A^-1 x for a lower triangular BSR matrix A.
int solve(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int mb, rocsparse_int nnzb, double* val,
          const rocsparse_int* row_ptr, const rocsparse_int* col_ind, rocsparse_int dim, const double* x, double* y) {
  const rocsparse_direction dir = rocsparse_direction_row;
  const rocsparse_operation trans = rocsparse_operation_none;
  const rocsparse_analysis_policy analysis = rocsparse_analysis_policy_reuse;
  const rocsparse_solve_policy policy = rocsparse_solve_policy_auto;
  const double alpha = 1.0;
  CHECK(rocsparse_set_mat_fill_mode(descr, rocsparse_fill_mode_lower));
  CHECK(rocsparse_set_mat_diag_type(descr, rocsparse_diag_type_non_unit));

  rocsparse_mat_info info;
  CHECK(rocsparse_create_mat_info(&info));
  size_t size = 0;
  CHECK(rocsparse_dbsrsv_buffer_size(handle, dir, trans, mb, nnzb, descr, val, row_ptr, col_ind, dim, info, &size));
  void* buffer = nullptr;
  if (hipMalloc(&buffer, size) != hipSuccess) return 1;
  CHECK(rocsparse_dbsrsv_analysis(handle, dir, trans, mb, nnzb, descr, val, row_ptr, col_ind, dim, info, analysis,
                                  policy, buffer));
  CHECK(rocsparse_dbsrsv_solve(handle, dir, trans, mb, nnzb, &alpha, descr, val, row_ptr, col_ind, dim, info, x, y,
                               policy, buffer));
  rocsparse_int pivot = 0;
  if (rocsparse_bsrsv_zero_pivot(handle, info, &pivot) == rocsparse_status_zero_pivot)
    std::printf("zero pivot at block %d\n", pivot);
  (void)hipFree(buffer);
  CHECK(rocsparse_destroy_mat_info(info));
  return 0;
}

// y = alpha A x + beta y; rocSPARSE 3 passes an (optional) analysis info.
int multiply(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int mb, rocsparse_int nb,
             rocsparse_int nnzb, const double* val, const rocsparse_int* row_ptr, const rocsparse_int* col_ind,
             rocsparse_int dim, const double* x, double* y) {
  const double alpha = 2.0, beta = 1.0;
  rocsparse_mat_info info;
  CHECK(rocsparse_create_mat_info(&info));
  CHECK(rocsparse_dbsrmv(handle, rocsparse_direction_column, rocsparse_operation_none, mb, nb, nnzb, &alpha, descr,
                         val, row_ptr, col_ind, dim, info, x, &beta, y));
  CHECK(rocsparse_destroy_mat_info(info));
  return 0;
}

// y = alpha A x + beta y for CSR and COO matrices (cuSPARSE 12 has no csrmv, and never had coomv).
int multiply_csr(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int m, rocsparse_int n,
                 rocsparse_int nnz, const double* val, const rocsparse_int* row_ptr, const rocsparse_int* col_ind,
                 const rocsparse_int* row_ind, const double* x, double* y) {
  const double alpha = 1.0, beta = 0.0;
  rocsparse_mat_info info;
  CHECK(rocsparse_create_mat_info(&info));
  CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha, descr, val, row_ptr, col_ind, info, x,
                         &beta, y));
  CHECK(rocsparse_destroy_mat_info(info));
  CHECK(rocsparse_dcoomv(handle, rocsparse_operation_transpose, m, n, nnz, &alpha, descr, val, row_ind, col_ind, y,
                         &beta, const_cast<double*>(x)));
  return 0;
}

// C = A B^T for a dense m x k matrix A and a CSR matrix B (n x k); cuSPARSE 12 has no gemmi.
int dense_times_sparse(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int m, rocsparse_int n,
                       rocsparse_int k, rocsparse_int nnz, const double* A, const double* val,
                       const rocsparse_int* row_ptr, const rocsparse_int* col_ind, double* C) {
  const double alpha = 1.0, beta = 0.0;
  CHECK(rocsparse_dgemmi(handle, rocsparse_operation_none, rocsparse_operation_transpose, m, n, k, nnz, &alpha, A, m,
                         descr, val, row_ptr, col_ind, &beta, C, m));
  return 0;
}

// Incomplete LU of a CSR matrix, then its dense copy A (column-major, m x m).
int factor(rocsparse_handle handle, rocsparse_mat_descr descr, rocsparse_int m, rocsparse_int nnz, double* val,
           const rocsparse_int* row_ptr, const rocsparse_int* col_ind, double* A) {
  rocsparse_mat_info ilu;
  CHECK(rocsparse_create_mat_info(&ilu));
  size_t size = 0;
  CHECK(rocsparse_dcsrilu0_buffer_size(handle, m, nnz, descr, val, row_ptr, col_ind, ilu, &size));
  void* buffer = nullptr;
  if (hipMalloc(&buffer, size) != hipSuccess) return 1;
  CHECK(rocsparse_dcsrilu0_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, ilu,
                                    rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer));
  CHECK(rocsparse_dcsrilu0(handle, m, nnz, descr, val, row_ptr, col_ind, ilu, rocsparse_solve_policy_auto, buffer));
  rocsparse_int pivot = 0;
  const rocsparse_status st = rocsparse_csrilu0_zero_pivot(handle, ilu, &pivot);
  if (st == rocsparse_status_zero_pivot) std::printf("zero pivot at row %d\n", pivot);
  CHECK(rocsparse_dcsr2dense(handle, m, m, descr, val, row_ptr, col_ind, A, m));
  (void)hipFree(buffer);
  CHECK(rocsparse_destroy_mat_info(ilu));
  return 0;
}
