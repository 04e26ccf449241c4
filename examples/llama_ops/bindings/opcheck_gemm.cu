// opcheck_gemm.cu - `ferry opcheck` entry points of the cuBLAS-backed linear layers (gemm.h).
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include "llama_ops/common.cuh"
#include "llama_ops/gemm.h"
#include "opcheck_support.cuh"

using llama_ops_opcheck::Session;

namespace {

cublasHandle_t handle_on(cudaStream_t stream) {
    static cublasHandle_t handle = nullptr;
    if (!handle) CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    return handle;
}

}  // namespace

extern "C" {

// y[M,N] = x[M,K] w[N,K]^T: fp32 (cublasSgemm), or fp16 inputs with an fp32 output (cublasGemmEx).
int opcheck_linear(ferry_opcheck_call* c) {
    Session s(c);
    const int M = s.dim("M"), N = s.dim("N"), K = s.dim("K");
    void *x = s.in<void>("x"), *w = s.in<void>("w");
    float* y = s.out<float>("y");
    if (!x || !w || !y) return s.error("needs inputs x, w and output y (fp32)");
    if (s.dtype() == FERRY_F32)
        return s.run([=](cudaStream_t st) -> const char* {
            llama_ops::linear_f32(handle_on(st), static_cast<float*>(x), static_cast<float*>(w), y, M, N, K);
            return nullptr;
        });
    if (s.dtype() == FERRY_F16)
        return s.run([=](cudaStream_t st) -> const char* {
            llama_ops::linear_f16(handle_on(st), static_cast<__half*>(x), static_cast<__half*>(w), y, M, N, K);
            return nullptr;
        });
    return s.unsupported("fp32 and fp16 only");
}

// dx[M,K] = dy w, dw[N,K] = dy^T x.
int opcheck_linear_backward(ferry_opcheck_call* c) {
    Session s(c);
    if (s.dtype() != FERRY_F32) return s.unsupported("fp32 only");
    const int M = s.dim("M"), N = s.dim("N"), K = s.dim("K");
    float *x = s.in<float>("x"), *w = s.in<float>("w"), *dy = s.in<float>("dy");
    float *dx = s.out<float>("dx"), *dw = s.out<float>("dw");
    if (!x || !w || !dy || !dx || !dw) return s.error("needs inputs x, w, dy and outputs dx, dw");
    return s.run([=](cudaStream_t st) -> const char* {
        cublasHandle_t h = handle_on(st);
        llama_ops::gemm_rowmajor_f32(h, dy, w, dx, M, K, N);
        llama_ops::linear_backward_weight_f32(h, x, dy, dw, M, N, K);
        return nullptr;
    });
}

}  // extern "C"
