// swiglu.cu - SiLU and the SwiGLU gate of the LLaMA feed-forward block.
//
// Grid-stride loops; the grid is sized from the SM count like production code.
#include <algorithm>

#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

__global__ void swiglu_kernel(const float* __restrict__ gate, const float* __restrict__ up,
                              float* __restrict__ out, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        out[i] = silu(gate[i]) * up[i];
}

__global__ void silu_kernel(float* __restrict__ x, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        x[i] = silu(x[i]);
}

static int elementwise_blocks(int64_t n, int threads) {
    static int num_sms = 0;
    if (num_sms == 0) {
        int device = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, device));
    }
    const int64_t wanted = CEIL_DIV(n, (int64_t)threads);
    return (int)std::max<int64_t>(1, std::min<int64_t>(wanted, (int64_t)num_sms * 8));
}

void swiglu(const float* gate, const float* up, float* out, int64_t n, cudaStream_t stream) {
    const int threads = 256;
    swiglu_kernel<<<elementwise_blocks(n, threads), threads, 0, stream>>>(gate, up, out, n);
    CUDA_CHECK_LAUNCH();
}

void silu_inplace(float* x, int64_t n, cudaStream_t stream) {
    const int threads = 256;
    silu_kernel<<<elementwise_blocks(n, threads), threads, 0, stream>>>(x, n);
    CUDA_CHECK_LAUNCH();
}

}  // namespace llama_ops
