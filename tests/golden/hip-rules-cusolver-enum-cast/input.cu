// cuSOLVER takes cuBLAS's enum types. A fill mode, operation or side kept in a variable, a
// parameter or a function's result keeps its migrated hipBLAS type, which hipSOLVER before
// ROCm 6.0 does not take: each such argument gets a cast to hipSOLVER's type (same values).
#include <cublas_v2.h>
#include <cusolverDn.h>

static cublasOperation_t transposed(bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }

// Cholesky: size the workspace and factor with the same fill mode.
int cholesky(cusolverDnHandle_t h, int n, double* A, int lda, int* info) {
  int lwork = 0;
  double* work = nullptr;
  cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;
  if (cusolverDnDpotrf_bufferSize(h, uplo, n, A, lda, &lwork) != CUSOLVER_STATUS_SUCCESS) return 1;
  cudaMalloc(&work, sizeof(double) * lwork);
  cusolverStatus_t s = cusolverDnDpotrf(h, uplo, n, A, lda, work, lwork, info);
  cudaFree(work);
  return s == CUSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// LU solve, transposed or not: the operation comes from a function.
int lu_solve(cusolverDnHandle_t h, int n, const double* LU, const int* ipiv, double* B, int* info, bool t) {
  return cusolverDnDgetrs(h, transposed(t), n, 1, LU, n, ipiv, B, n, info) == CUSOLVER_STATUS_SUCCESS ? 0 : 1;
}

// Apply Q from a QR factorisation: side and operation arrive as parameters.
int apply_q(cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t op, int m, int n, const double* QR,
            const double* tau, double* C, double* work, int lwork, int* info) {
  return cusolverDnDormqr(h, side, op, m, n, n, QR, m, tau, C, m, work, lwork, info) == CUSOLVER_STATUS_SUCCESS
             ? 0
             : 1;
}
