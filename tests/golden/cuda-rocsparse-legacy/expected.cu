// rocSPARSE's legacy API (BSR triangular solve, BSR and CSR products, ILU(0), CSR to dense) on the way to
// cuSPARSE: one rocsparse_mat_info type against cuSPARSE's info per algorithm, the analysis policy
// cuSPARSE has no twin of, statuses cuSPARSE never returns, and csr2dense, which CUDA 12 removed.
#include "ferry/compat_cusparse.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstdio>

#define CHECK(expr)                                                   \
  do {                                                                \
    const cusparseStatus_t status_ = (expr);                          \
    if (status_ != CUSPARSE_STATUS_SUCCESS) {                        \
      std::printf("%s at line %d\n", status_name(status_), __LINE__); \
      return 1;                                                       \
    }                                                                 \
  } while (0)

const char* status_name(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS: return "success";
    case CUSPARSE_STATUS_ZERO_PIVOT: return "zero pivot";
#if 3 /* ferry: ROCSPARSE_VERSION_MAJOR */ >= 3
#endif
    default: return "other status";
  }
}

// y = A^-1 x for a lower triangular BSR matrix A.
int solve(cusparseHandle_t handle, cusparseMatDescr_t descr, int mb, int nnzb, double* val,
          const int* row_ptr, const int* col_ind, int dim, const double* x, double* y) {
  const cusparseDirection_t dir = CUSPARSE_DIRECTION_ROW;
  const cusparseOperation_t trans = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const int analysis = 0;
  const cusparseSolvePolicy_t policy = CUSPARSE_SOLVE_POLICY_USE_LEVEL;
  const double alpha = 1.0;
  CHECK(cusparseSetMatFillMode(descr, CUSPARSE_FILL_MODE_LOWER));
  CHECK(cusparseSetMatDiagType(descr, CUSPARSE_DIAG_TYPE_NON_UNIT));

  bsrsv2Info_t info;
  CHECK(cusparseCreateBsrsv2Info(&info));
  size_t size = 0;
  CHECK(ferry::cusparse_compat::int_buffer_size(cusparseDbsrsv2_bufferSize, &size, handle, dir, trans, mb, nnzb, descr, val, row_ptr, col_ind, dim, info));
  void* buffer = nullptr;
  if (cudaMalloc(&buffer, size) != cudaSuccess) return 1;
  CHECK(cusparseDbsrsv2_analysis(handle, dir, trans, mb, nnzb, descr, val, row_ptr, col_ind, dim, info,
                                  policy, buffer));
  CHECK(cusparseDbsrsv2_solve(handle, dir, trans, mb, nnzb, &alpha, descr, val, row_ptr, col_ind, dim, info, x, y,
                               policy, buffer));
  int pivot = 0;
  if (cusparseXbsrsv2_zeroPivot(handle, info, &pivot) == CUSPARSE_STATUS_ZERO_PIVOT)
    std::printf("zero pivot at block %d\n", pivot);
  (void)cudaFree(buffer);
  CHECK(cusparseDestroyBsrsv2Info(info));
  return 0;
}

// y = alpha A x + beta y; rocSPARSE 3 passes an (optional) analysis info.
int multiply(cusparseHandle_t handle, cusparseMatDescr_t descr, int mb, int nb,
             int nnzb, const double* val, const int* row_ptr, const int* col_ind,
             int dim, const double* x, double* y) {
  const double alpha = 2.0, beta = 1.0;
  CHECK(cusparseDbsrmv(handle, CUSPARSE_DIRECTION_COLUMN, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nb, nnzb, &alpha, descr,
                         val, row_ptr, col_ind, dim, x, &beta, y));
  return 0;
}

// y = alpha A x + beta y for CSR and COO matrices (cuSPARSE 12 has no csrmv, and never had coomv).
int multiply_csr(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int n,
                 int nnz, const double* val, const int* row_ptr, const int* col_ind,
                 const int* row_ind, const double* x, double* y) {
  const double alpha = 1.0, beta = 0.0;
  CHECK(ferry::cusparse_compat::csrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, &alpha, descr, val, row_ptr, col_ind, x,
                         &beta, y));
  CHECK(ferry::cusparse_compat::coomv(handle, CUSPARSE_OPERATION_TRANSPOSE, m, n, nnz, &alpha, descr, val, row_ind, col_ind, y,
                         &beta, const_cast<double*>(x)));
  return 0;
}

// C = A B^T for a dense m x k matrix A and a CSR matrix B (n x k); cuSPARSE 12 has no gemmi.
int dense_times_sparse(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int n,
                       int k, int nnz, const double* A, const double* val,
                       const int* row_ptr, const int* col_ind, double* C) {
  const double alpha = 1.0, beta = 0.0;
  CHECK(ferry::cusparse_compat::gemmi(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_TRANSPOSE, m, n, k, nnz, &alpha, A, m,
                         descr, val, row_ptr, col_ind, &beta, C, m));
  return 0;
}

// Incomplete LU of a CSR matrix, then its dense copy A (column-major, m x m).
int factor(cusparseHandle_t handle, cusparseMatDescr_t descr, int m, int nnz, double* val,
           const int* row_ptr, const int* col_ind, double* A) {
  csrilu02Info_t ilu;
  CHECK(cusparseCreateCsrilu02Info(&ilu));
  size_t size = 0;
  CHECK(ferry::cusparse_compat::int_buffer_size(cusparseDcsrilu02_bufferSize, &size, handle, m, nnz, descr, val, row_ptr, col_ind, ilu));
  void* buffer = nullptr;
  if (cudaMalloc(&buffer, size) != cudaSuccess) return 1;
  CHECK(cusparseDcsrilu02_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, ilu, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer));
  CHECK(cusparseDcsrilu02(handle, m, nnz, descr, val, row_ptr, col_ind, ilu, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer));
  int pivot = 0;
  const cusparseStatus_t st = cusparseXcsrilu02_zeroPivot(handle, ilu, &pivot);
  if (st == CUSPARSE_STATUS_ZERO_PIVOT) std::printf("zero pivot at row %d\n", pivot);
  CHECK(ferry::cusparse_compat::csr2dense(handle, m, m, descr, val, row_ptr, col_ind, A, m));
  (void)cudaFree(buffer);
  CHECK(cusparseDestroyCsrilu02Info(ilu));
  return 0;
}
