// cuBLAS GEMM -> aclnnMatmul: a simple, fully visible call is rewritten; a transposed one is
// explained.
#include <cublas_v2.h>
#include <cuda_runtime.h>

void gemm(cublasHandle_t handle, cudaStream_t stream, const float *A, const float *B, float *C, int m, int n,
          int k) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  cublasSetStream(handle, stream);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m);
  cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, k, B, k, &beta, C, m);
}
