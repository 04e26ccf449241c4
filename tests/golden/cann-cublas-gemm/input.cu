// cuBLAS GEMM -> aclnnMatmul: a simple, fully visible call is rewritten; a transposed one is
// explained. The handle has no aclnn twin: its lines are left for the user to delete.
#include <cublas_v2.h>
#include <cuda_runtime.h>

void gemm(cudaStream_t stream, const float *A, const float *B, float *C, int m, int n, int k) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, stream);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m);
  cublasDestroy(handle);
}

void gemm_transposed(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, k, B, k, &beta, C, m);
}
