// GEMM through cuBLAS (column-major C = alpha * A * B + beta * C).
#include <hipblas/hipblas.h>
#include <hip/hip_runtime.h>

int gemm(int m, int n, int k, const float* dA, const float* dB, float* dC, hipStream_t s) {
  hipblasHandle_t handle;
  if (hipblasCreate(&handle) != HIPBLAS_STATUS_SUCCESS) return -1;
  hipblasSetStream(handle, s);
  const float alpha = 1.f, beta = 0.f;
  hipblasStatus_t st = hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, dA, m, dB, n,
                                  &beta, dC, m);
  hipblasDestroy(handle);
  return st == HIPBLAS_STATUS_SUCCESS ? 0 : -2;
}
