// gemm.h - the cuBLAS-backed linear layers of the operator library. Kept apart
// from ops.h so that kernels which do not call cuBLAS do not need its headers.
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>

namespace llama_ops {

// ---- gemm.cu --------------------------------------------------------------
// y[M,N] = x[M,K] * W[N,K]^T (+ beta * y): a linear layer with PyTorch's
// weight layout, computed by cuBLAS (column-major) through transposition.
void linear_f32(cublasHandle_t handle, const float* x, const float* w, float* y,
                int M, int N, int K, float beta = 0.f);
// Same with half inputs, float output and float accumulation (cublasGemmEx).
void linear_f16(cublasHandle_t handle, const __half* x, const __half* w, float* y,
                int M, int N, int K);
// Weight gradient of linear_f32: dW[N,K] = dy[M,N]^T * x[M,K] (the input gradient dx = dy * W
// is gemm_rowmajor_f32(dy, W, dx, M, K, N)).
void linear_backward_weight_f32(cublasHandle_t handle, const float* x, const float* dy, float* dw,
                                int M, int N, int K);
// Plain row-major C[M,N] = A[M,K] * B[K,N].
void gemm_rowmajor_f32(cublasHandle_t handle, const float* A, const float* B, float* C,
                       int M, int N, int K);

}  // namespace llama_ops
