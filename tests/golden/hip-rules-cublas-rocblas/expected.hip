// GEMM through cuBLAS (column-major C = alpha * A * B + beta * C).
#include <rocblas/rocblas.h>
#include <hip/hip_runtime.h>

int gemm(int m, int n, int k, const float* dA, const float* dB, float* dC, hipStream_t s) {
  rocblas_handle handle;
  if (rocblas_create_handle(&handle) != rocblas_status_success) return -1;
  rocblas_set_stream(handle, s);
  const float alpha = 1.f, beta = 0.f;
  rocblas_status st = rocblas_sgemm(handle, rocblas_operation_none, rocblas_operation_transpose, m, n, k, &alpha, dA, m, dB, n,
                                  &beta, dC, m);
  rocblas_destroy_handle(handle);
  return st == rocblas_status_success ? 0 : -2;
}
