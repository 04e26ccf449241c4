// GEMM through cuBLAS (column-major C = alpha * A * B + beta * C).
#include <cublas_v2.h>
#include <cuda_runtime.h>

int gemm(int m, int n, int k, const float* dA, const float* dB, float* dC, cudaStream_t s) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return -1;
  cublasSetStream(handle, s);
  const float alpha = 1.f, beta = 0.f;
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, dA, m, dB, n,
                                  &beta, dC, m);
  cublasDestroy(handle);
  return st == CUBLAS_STATUS_SUCCESS ? 0 : -2;
}
