// cuSOLVER takes cuBLAS's enum types. A fill mode, operation or side kept in a variable, a
// parameter or a function's result keeps its migrated hipBLAS type, which hipSOLVER before
// ROCm 6.0 does not take: each such argument gets a cast to hipSOLVER's type (same values).
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hipblas/hipblas.h>
#include <hipsolver/hipsolver.h>

static hipblasOperation_t transposed(bool t) { return t ? HIPBLAS_OP_T : HIPBLAS_OP_N; }

// Cholesky: size the workspace and factor with the same fill mode.
int cholesky(hipsolverDnHandle_t h, int n, double* A, int lda, int* info) {
  int lwork = 0;
  double* work = nullptr;
  hipblasFillMode_t uplo = HIPBLAS_FILL_MODE_LOWER;
  if (hipsolverDnDpotrf_bufferSize(h, (static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */, n, A, lda, &lwork) != HIPSOLVER_STATUS_SUCCESS) return 1;
  hipMalloc(&work, sizeof(double) * lwork);
  hipsolverStatus_t s = hipsolverDnDpotrf(h, (static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */, n, A, lda, work, lwork, info);
  hipFree(work);
  return s == HIPSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// LU solve, transposed or not: the operation comes from a function.
int lu_solve(hipsolverDnHandle_t h, int n, const double* LU, const int* ipiv, double* B, int* info, bool t) {
  return hipsolverDnDgetrs(h, (static_cast<hipsolverOperation_t>(transposed(t))) /* ferry-cuda: transposed(t) */, n, 1, LU, n, ipiv, B, n, info) == HIPSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// Apply Q from a QR factorisation: side and operation arrive as parameters.
int apply_q(hipsolverDnHandle_t h, hipblasSideMode_t side, hipblasOperation_t op, int m, int n, const double* QR,
            const double* tau, double* C, double* work, int lwork, int* info) {
  return hipsolverDnDormqr(h, (static_cast<hipsolverSideMode_t>(side)) /* ferry-cuda: side */, (static_cast<hipsolverOperation_t>(op)) /* ferry-cuda: op */, m, n, n, QR, m, tau, C, m, work, lwork, info) == HIPSOLVER_STATUS_SUCCESS
             ? 0
             : 1;
}
