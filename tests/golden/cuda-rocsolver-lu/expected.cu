// rocSOLVER's LU factorisation and inverse on the way to cuSOLVER: same contract, other shape
// (cuSOLVER's own handle and a workspace, no getri); ferry/compat_cusolver.h bridges them.
#include "ferry/compat_cusolver.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

// A (n x n, column-major, on the device) becomes its inverse; returns the first info != 0.
int invert(cublasHandle_t handle, int n, double* A, int* pivots, int* d_info) {
  int info = 0;
  if (ferry::cusolver_compat::getrf(handle, n, n, A, n, pivots, d_info) != CUBLAS_STATUS_SUCCESS) return -1;
  if (cudaMemcpy(&info, d_info, sizeof(info), cudaMemcpyDeviceToHost) != cudaSuccess || info != 0) return info;
  if (ferry::cusolver_compat::getri(handle, n, A, n, pivots, d_info) != CUBLAS_STATUS_SUCCESS) return -1;
  if (cudaMemcpy(&info, d_info, sizeof(info), cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  return info;
}

// The unblocked factorisation of a single-precision panel.
cublasStatus_t panel(cublasHandle_t handle, int m, int n, float* A, int lda,
                     int* pivots, int* d_info) {
  return ferry::cusolver_compat::getf2(handle, m, n, A, lda, pivots, d_info);
}
