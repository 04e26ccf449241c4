// embedding.cu - token embedding lookup, one warp per token.
//
// Lane 0 validates the token id and publishes it to its warp through shared
// memory; __syncwarp() orders that write before the other lanes read it.
#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

__global__ void embedding_kernel(const int* __restrict__ ids, const float* __restrict__ table,
                                 float* __restrict__ out, int tokens, int hidden, int vocab) {
    __shared__ int s_token[32];  // one slot per warp
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int t = blockIdx.x * (blockDim.x / WARP_SIZE) + warp;
    if (t >= tokens) return;  // the whole warp leaves together

    if (lane == 0) {
        const int id = ids[t];
        s_token[warp] = (id >= 0 && id < vocab) ? id : -1;
    }
    __syncwarp();
    const int id = s_token[warp];

    float* dst = out + (size_t)t * hidden;
    if (id < 0) {
        for (int i = lane; i < hidden; i += WARP_SIZE) dst[i] = 0.f;
        return;
    }
    const float* src = table + (size_t)id * hidden;
    for (int i = lane; i < hidden; i += WARP_SIZE) dst[i] = src[i];
}

void embedding_lookup(const int* ids, const float* table, float* out, int tokens, int hidden,
                      int vocab, cudaStream_t stream) {
    const int threads = 256;
    const int warps_per_block = threads / WARP_SIZE;
    const int blocks = CEIL_DIV(tokens, warps_per_block);
    embedding_kernel<<<blocks, threads, 0, stream>>>(ids, table, out, tokens, hidden, vocab);
    CUDA_CHECK_LAUNCH();
}

}  // namespace llama_ops
