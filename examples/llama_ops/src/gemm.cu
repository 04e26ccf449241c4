// gemm.cu - cuBLAS wrappers for row-major tensors.
//
// cuBLAS is column-major. A row-major matrix X[R,C] has the same bytes as the
// column-major matrix X^T[C,R], so a row-major product C = A * B is computed
// as the column-major product C^T = B^T * A^T: swap the operands and swap M/N.
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "llama_ops/common.cuh"
#include "llama_ops/gemm.h"
#include "llama_ops/ops.h"

namespace llama_ops {

void linear_f32(cublasHandle_t handle, const float* x, const float* w, float* y,
                int M, int N, int K, float beta) {
    const float alpha = 1.0f;
    // Column-major view: y^T[N,M] = W[N,K] * x^T[K,M]. W is stored row-major
    // [N,K], i.e. column-major [K,N], hence CUBLAS_OP_T with ld = K.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N,
                             N, M, K,
                             &alpha,
                             w, K,
                             x, K,
                             &beta,
                             y, N));
}

void linear_f16(cublasHandle_t handle, const __half* x, const __half* w, float* y,
                int M, int N, int K) {
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N,
                              N, M, K,
                              &alpha,
                              w, CUDA_R_16F, K,
                              x, CUDA_R_16F, K,
                              &beta,
                              y, CUDA_R_32F, N,
                              CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

void linear_backward_weight_f32(cublasHandle_t handle, const float* x, const float* dy, float* dw,
                                int M, int N, int K) {
    const float alpha = 1.0f, beta = 0.0f;
    // Column-major view: dW^T[K,N] = x^T[K,M] * dy[M,N]; x^T is x's bytes with ld = K and dy
    // (column-major [N,M]) enters transposed.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T,
                             K, N, M,
                             &alpha,
                             x, K,
                             dy, N,
                             &beta,
                             dw, K));
}

void gemm_rowmajor_f32(cublasHandle_t handle, const float* A, const float* B, float* C,
                       int M, int N, int K) {
    const float alpha = 1.0f, beta = 0.0f;
    // C^T[N,M] = B^T[N,K] * A^T[K,M]; both already "transposed" by layout.
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N,
                             N, M, K,
                             &alpha,
                             B, N,
                             A, K,
                             &beta,
                             C, N));
}

}  // namespace llama_ops
