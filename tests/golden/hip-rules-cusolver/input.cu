// cuSOLVER dense: Cholesky (potrf/potrs), LU (getrf/getrs) and QR (ormqr) of column-major
// matrices, with error checks. cuBLAS enumerators passed to cuSOLVER become hipSOLVER's
// (HIPSOLVER_FILL_MODE_*, HIPSOLVER_OP_*, HIPSOLVER_SIDE_*); the same names in cuBLAS calls, and in
// calls nested inside a cuSOLVER call, stay hipBLAS's. A variable of a cuBLAS enum type passed to
// cuSOLVER gets a cast to hipSOLVER's type (FRY1312).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdio>

#define CUSOLVER_CHECK(call)                                                       \
  do {                                                                             \
    cusolverStatus_t st_ = (call);                                                 \
    if (st_ != CUSOLVER_STATUS_SUCCESS) {                                          \
      std::fprintf(stderr, "cusolver error %d at %s:%d\n", st_, __FILE__, __LINE__); \
      return -1;                                                                   \
    }                                                                              \
  } while (0)

// A: n x n symmetric positive definite; B: n x nrhs right-hand sides, overwritten by X.
int cholesky_solve(cusolverDnHandle_t h, int n, int nrhs, float* dA, float* dB, int* dInfo) {
  int lwork = 0;
  CUSOLVER_CHECK(cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, dA, n, &lwork));
  float* work = nullptr;
  if (cudaMalloc(&work, sizeof(float) * lwork) != cudaSuccess) return -1;
  CUSOLVER_CHECK(cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, lwork, dInfo));
  CUSOLVER_CHECK(cusolverDnSpotrs(h, CUBLAS_FILL_MODE_LOWER, n, nrhs, dA, n, dB, n, dInfo));
  cudaFree(work);
  return 0;
}

// LU with partial pivoting, then op(A) X = B; then a triangular solve through cuBLAS.
int lu_solve(cusolverDnHandle_t h, cublasHandle_t blas, int n, double* dA, double* dB,
             int* dIpiv, int* dInfo, bool transposed, bool upper) {
  int lwork = 0;
  CUSOLVER_CHECK(cusolverDnDgetrf_bufferSize(h, n, n, dA, n, &lwork));
  double* work = nullptr;
  if (cudaMalloc(&work, sizeof(double) * lwork) != cudaSuccess) return -1;
  CUSOLVER_CHECK(cusolverDnDgetrf(h, n, n, dA, n, work, dIpiv, dInfo));
  CUSOLVER_CHECK(cusolverDnDgetrs(h, transposed ? CUBLAS_OP_T : CUBLAS_OP_N, n, 1, dA, n, dIpiv,
                                  dB, n, dInfo));
  int info = 0;
  cudaMemcpy(&info, dInfo, sizeof(int), cudaMemcpyDeviceToHost);
  if (info != 0) {
    std::fprintf(stderr, "getrf: U(%d,%d) is zero\n", info, info);
    cudaFree(work);
    return info;
  }
  // A cuBLAS call in the same function keeps hipBLAS's names.
  const double one = 1.0;
  cublasDtrsm(blas, CUBLAS_SIDE_LEFT, upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
              CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, 1, &one, dA, n, dB, n);
  cudaFree(work);
  return 0;
}

// QR: apply Q^T from the left (ormqr takes a side and an operation).
int apply_qt(cusolverDnHandle_t h, int m, int n, float* dA, float* tau, float* dC, float* work,
             int lwork, int* dInfo) {
  CUSOLVER_CHECK(cusolverDnSormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, m, n, n, dA, m, tau, dC, m,
                                  work, lwork, dInfo));
  return 0;
}

cublasFillMode_t lower_if(bool lower) {
  return lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

// The fill mode arrives in a variable or from a function: their types stay hipBLAS's, and the
// argument gets a cast (FRY1312).
int factor(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, float* dA, float* work, int lwork,
           int* dInfo) {
  CUSOLVER_CHECK(cusolverDnSpotrf(h, uplo, n, dA, n, work, lwork, dInfo));
  CUSOLVER_CHECK(cusolverDnSpotrf(h, lower_if(uplo == CUBLAS_FILL_MODE_LOWER), n, dA, n, work,
                                  lwork, dInfo));
  CUSOLVER_CHECK(cusolverDnSpotrf(h, static_cast<cublasFillMode_t>(uplo), n, dA, n, work, lwork,
                                  dInfo));
  return 0;
}

int main() {
  cusolverDnHandle_t h;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) return 1;
  cusolverDnDestroy(h);
  return 0;
}
