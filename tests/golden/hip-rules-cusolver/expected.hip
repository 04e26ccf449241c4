// cuSOLVER dense: Cholesky (potrf/potrs), LU (getrf/getrs) and QR (ormqr) of column-major
// matrices, with error checks. cuBLAS enumerators passed to cuSOLVER become hipSOLVER's
// (HIPSOLVER_FILL_MODE_*, HIPSOLVER_OP_*, HIPSOLVER_SIDE_*); the same names in cuBLAS calls, and in
// calls nested inside a cuSOLVER call, stay hipBLAS's. A variable of a cuBLAS enum type passed to
// cuSOLVER gets a cast to hipSOLVER's type (FRY1312).
#include <hipblas/hipblas.h>
#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

#include <cstdio>

#define CUSOLVER_CHECK(call)                                                       \
  do {                                                                             \
    hipsolverStatus_t st_ = (call);                                                 \
    if (st_ != HIPSOLVER_STATUS_SUCCESS) {                                          \
      std::fprintf(stderr, "cusolver error %d at %s:%d\n", st_, __FILE__, __LINE__); \
      return -1;                                                                   \
    }                                                                              \
  } while (0)

// A: n x n symmetric positive definite; B: n x nrhs right-hand sides, overwritten by X.
int cholesky_solve(hipsolverDnHandle_t h, int n, int nrhs, float* dA, float* dB, int* dInfo) {
  int lwork = 0;
  CUSOLVER_CHECK(hipsolverDnSpotrf_bufferSize(h, HIPSOLVER_FILL_MODE_LOWER, n, dA, n, &lwork));
  float* work = nullptr;
  if (hipMalloc(&work, sizeof(float) * lwork) != hipSuccess) return -1;
  CUSOLVER_CHECK(hipsolverDnSpotrf(h, HIPSOLVER_FILL_MODE_LOWER, n, dA, n, work, lwork, dInfo));
  CUSOLVER_CHECK(hipsolverDnSpotrs(h, HIPSOLVER_FILL_MODE_LOWER, n, nrhs, dA, n, dB, n, dInfo));
  hipFree(work);
  return 0;
}

// LU with partial pivoting, then op(A) X = B; then a triangular solve through cuBLAS.
int lu_solve(hipsolverDnHandle_t h, hipblasHandle_t blas, int n, double* dA, double* dB,
             int* dIpiv, int* dInfo, bool transposed, bool upper) {
  int lwork = 0;
  CUSOLVER_CHECK(hipsolverDnDgetrf_bufferSize(h, n, n, dA, n, &lwork));
  double* work = nullptr;
  if (hipMalloc(&work, sizeof(double) * lwork) != hipSuccess) return -1;
  CUSOLVER_CHECK(hipsolverDnDgetrf(h, n, n, dA, n, work, dIpiv, dInfo));
  CUSOLVER_CHECK(hipsolverDnDgetrs(h, transposed ? HIPSOLVER_OP_T : HIPSOLVER_OP_N, n, 1, dA, n, dIpiv,
                                  dB, n, dInfo));
  int info = 0;
  hipMemcpy(&info, dInfo, sizeof(int), hipMemcpyDeviceToHost);
  if (info != 0) {
    std::fprintf(stderr, "getrf: U(%d,%d) is zero\n", info, info);
    hipFree(work);
    return info;
  }
  // A cuBLAS call in the same function keeps hipBLAS's names.
  const double one = 1.0;
  hipblasDtrsm(blas, HIPBLAS_SIDE_LEFT, upper ? HIPBLAS_FILL_MODE_UPPER : HIPBLAS_FILL_MODE_LOWER,
              HIPBLAS_OP_N, HIPBLAS_DIAG_NON_UNIT, n, 1, &one, dA, n, dB, n);
  hipFree(work);
  return 0;
}

// QR: apply Q^T from the left (ormqr takes a side and an operation).
int apply_qt(hipsolverDnHandle_t h, int m, int n, float* dA, float* tau, float* dC, float* work,
             int lwork, int* dInfo) {
  CUSOLVER_CHECK(hipsolverDnSormqr(h, HIPSOLVER_SIDE_LEFT, HIPSOLVER_OP_T, m, n, n, dA, m, tau, dC, m,
                                  work, lwork, dInfo));
  return 0;
}

hipblasFillMode_t lower_if(bool lower) {
  return lower ? HIPBLAS_FILL_MODE_LOWER : HIPBLAS_FILL_MODE_UPPER;
}

// The fill mode arrives in a variable or from a function: their types stay hipBLAS's, and the
// argument gets a cast (FRY1312).
int factor(hipsolverDnHandle_t h, hipblasFillMode_t uplo, int n, float* dA, float* work, int lwork,
           int* dInfo) {
  CUSOLVER_CHECK(hipsolverDnSpotrf(h, (static_cast<hipsolverFillMode_t>(uplo)) /* ferry-cuda: uplo */, n, dA, n, work, lwork, dInfo));
  CUSOLVER_CHECK(hipsolverDnSpotrf(h, (static_cast<hipsolverFillMode_t>(lower_if(uplo == HIPBLAS_FILL_MODE_LOWER))) /* ferry-cuda: lower_if(uplo == CUBLAS_FILL_MODE_LOWER) */, n, dA, n, work,
                                  lwork, dInfo));
  CUSOLVER_CHECK(hipsolverDnSpotrf(h, static_cast<hipsolverFillMode_t>(uplo), n, dA, n, work, lwork,
                                  dInfo));
  return 0;
}

int main() {
  hipsolverDnHandle_t h;
  if (hipsolverDnCreate(&h) != HIPSOLVER_STATUS_SUCCESS) return 1;
  hipsolverDnDestroy(h);
  return 0;
}
