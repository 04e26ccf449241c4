// torch_gemm.cu - the cuBLAS-backed linear layers for Python (ctypes), beside torch_ops.cu.
// One cuBLAS handle per process, bound to the caller's stream on every call.
#include <cublas_v2.h>

#include "llama_ops/common.cuh"
#include "llama_ops/gemm.h"

namespace {

cublasHandle_t handle_for(void* stream) {
    static cublasHandle_t handle = nullptr;
    if (!handle) CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, static_cast<cudaStream_t>(stream)));
    return handle;
}

}  // namespace

extern "C" {

// y[M,N] = x[M,K] * w[N,K]^T
int llama_linear(const float* x, const float* w, float* y, int M, int N, int K, void* stream) {
    llama_ops::linear_f32(handle_for(stream), x, w, y, M, N, K);
    return 0;
}

// dx[M,K] = dy[M,N] * w[N,K];  dw[N,K] = dy^T x  (either may be null: not computed)
int llama_linear_backward(const float* x, const float* w, const float* dy, float* dx, float* dw,
                          int M, int N, int K, void* stream) {
    cublasHandle_t h = handle_for(stream);
    if (dx) llama_ops::gemm_rowmajor_f32(h, dy, w, dx, M, K, N);
    if (dw) llama_ops::linear_backward_weight_f32(h, x, dy, dw, M, N, K);
    return 0;
}

}  // extern "C"
