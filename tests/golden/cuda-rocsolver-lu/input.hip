// rocSOLVER's LU factorisation and inverse on the way to cuSOLVER: same contract, other shape
// (cuSOLVER's own handle and a workspace, no getri); ferry/compat_cusolver.h bridges them.
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <rocsolver/rocsolver.h>

// A (n x n, column-major, on the device) becomes its inverse; returns the first info != 0.
int invert(rocblas_handle handle, rocblas_int n, double* A, rocblas_int* pivots, rocblas_int* d_info) {
  rocblas_int info = 0;
  if (rocsolver_dgetrf(handle, n, n, A, n, pivots, d_info) != rocblas_status_success) return -1;
  if (hipMemcpy(&info, d_info, sizeof(info), hipMemcpyDeviceToHost) != hipSuccess || info != 0) return info;
  if (rocsolver_dgetri(handle, n, A, n, pivots, d_info) != rocblas_status_success) return -1;
  if (hipMemcpy(&info, d_info, sizeof(info), hipMemcpyDeviceToHost) != hipSuccess) return -1;
  return info;
}

// The unblocked factorisation of a single-precision panel.
rocblas_status panel(rocblas_handle handle, rocblas_int m, rocblas_int n, float* A, rocblas_int lda,
                     rocblas_int* pivots, rocblas_int* d_info) {
  return rocsolver_sgetf2(handle, m, n, A, lda, pivots, d_info);
}
