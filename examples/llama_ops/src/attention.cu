// attention.cu - naive causal scaled-dot-product attention.
//
// One block per (query position, batch*head). The query row and the row of
// scores live in dynamic shared memory (`extern __shared__`); each warp computes
// dot products for a strided subset of keys and reduces them with
// __shfl_xor_sync; the softmax uses the block reductions; the output is
// accumulated one head-dimension element per thread.
//
// This is the textbook O(seq^2) kernel, not FlashAttention: it is here for the
// constructs, and as the reference a faster kernel would be checked against.
#include <cmath>

#include "llama_ops/common.cuh"
#include "llama_ops/reduce.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

__global__ void attention_causal_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                        const float* __restrict__ v, float* __restrict__ out,
                                        int seq, int head_dim, float scale) {
    extern __shared__ float smem[];
    float* s_q = smem;                 // [head_dim]
    float* s_scores = smem + head_dim;  // [seq], only [0, i] used

    const int i = blockIdx.x;           // query position
    const size_t base = (size_t)blockIdx.y * seq * head_dim;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int num_warps = blockDim.x >> 5;

    for (int d = threadIdx.x; d < head_dim; d += blockDim.x) s_q[d] = q[base + (size_t)i * head_dim + d];
    __syncthreads();

    // Causal mask: keys j > i are never looked at (they would get -inf).
    for (int j = warp; j <= i; j += num_warps) {
        const float* kj = k + base + (size_t)j * head_dim;
        float dot = 0.f;
        for (int d = lane; d < head_dim; d += WARP_SIZE) dot += s_q[d] * kj[d];
        dot = warp_reduce_sum(dot);
        if (lane == 0) s_scores[j] = dot * scale;
    }
    __syncthreads();

    float local_max = -INFINITY;
    for (int j = threadIdx.x; j <= i; j += blockDim.x) local_max = fmaxf(local_max, s_scores[j]);
    const float row_max = block_reduce_max(local_max);

    float local_sum = 0.f;
    for (int j = threadIdx.x; j <= i; j += blockDim.x) {
        const float p = __expf(s_scores[j] - row_max);
        s_scores[j] = p;
        local_sum += p;
    }
    // block_reduce_sum synchronises the block, so the probabilities written
    // above are visible to every thread afterwards.
    const float inv_sum = 1.f / block_reduce_sum(local_sum);

    for (int d = threadIdx.x; d < head_dim; d += blockDim.x) {
        float acc = 0.f;
        for (int j = 0; j <= i; ++j) acc += s_scores[j] * v[base + (size_t)j * head_dim + d];
        out[base + (size_t)i * head_dim + d] = acc * inv_sum;
    }
}

bool attention_causal(const float* q, const float* k, const float* v, float* out, int batch,
                      int heads, int seq, int head_dim, cudaStream_t stream) {
    const size_t smem = (size_t)(head_dim + seq) * sizeof(float);
    if (smem > 48 * 1024) return false;  // would need the opt-in, see softmax.cu
    const dim3 grid(seq, batch * heads);
    const int threads = 128;  // four warps
    const float scale = 1.0f / sqrtf((float)head_dim);
    attention_causal_kernel<<<grid, threads, smem, stream>>>(q, k, v, out, seq, head_dim, scale);
    CUDA_CHECK_LAUNCH();
    return true;
}

}  // namespace llama_ops
