// rope.cu - rotary position embedding.
//
// Shows: a __constant__ table written once with cudaMemcpyToSymbol, read by
// every thread with the same index at the same time (constant-cache broadcast).
#include <algorithm>
#include <cmath>
#include <vector>

#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

__constant__ float c_rope_inv_freq[kMaxHeadDim / 2];

// One thread per rotated pair (i, i + half) of one head of one token. Pairs
// follow the "rotate_half" convention: x' = x * cos - rotate_half(x) * sin.
__global__ void rope_kernel(float* __restrict__ q, float* __restrict__ k,
                            const int* __restrict__ positions, int tokens, int n_heads,
                            int n_kv_heads, int head_dim, float direction) {
    const int half = head_dim / 2;
    const int total_heads = n_heads + n_kv_heads;
    const long long n = (long long)tokens * total_heads * half;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const int i = t % half;
        const int h = (t / half) % total_heads;
        const int tok = t / ((long long)half * total_heads);

        float* base = (h < n_heads)
                          ? q + ((size_t)tok * n_heads + h) * head_dim
                          : k + ((size_t)tok * n_kv_heads + (h - n_heads)) * head_dim;
        const float angle = direction * ((float)positions[tok] * c_rope_inv_freq[i]);
        float s, c;
        sincosf(angle, &s, &c);
        const float x0 = base[i];
        const float x1 = base[i + half];
        base[i] = x0 * c - x1 * s;
        base[i + half] = x1 * c + x0 * s;
    }
}

void rope_init(int head_dim, float theta) {
    if (head_dim > kMaxHeadDim || head_dim % 2 != 0) {
        fprintf(stderr, "rope_init: unsupported head_dim %d\n", head_dim);
        exit(EXIT_FAILURE);
    }
    std::vector<float> inv_freq(head_dim / 2);
    for (int i = 0; i < head_dim / 2; ++i)
        inv_freq[i] = (float)(1.0 / std::pow((double)theta, (2.0 * i) / head_dim));
    CUDA_CHECK(cudaMemcpyToSymbol(c_rope_inv_freq, inv_freq.data(),
                                  inv_freq.size() * sizeof(float)));
}

static void launch_rope(float* q, float* k, const int* positions, int tokens, int n_heads,
                        int n_kv_heads, int head_dim, float direction, cudaStream_t stream) {
    const long long n = (long long)tokens * (n_heads + n_kv_heads) * (head_dim / 2);
    const int threads = 256;
    const int blocks = (int)std::min<long long>(CEIL_DIV(n, threads), 65535);
    rope_kernel<<<blocks, threads, 0, stream>>>(q, k, positions, tokens, n_heads, n_kv_heads,
                                                head_dim, direction);
    CUDA_CHECK_LAUNCH();
}

void rope_apply(float* q, float* k, const int* positions, int tokens, int n_heads,
                int n_kv_heads, int head_dim, cudaStream_t stream) {
    launch_rope(q, k, positions, tokens, n_heads, n_kv_heads, head_dim, 1.f, stream);
}

// The rotation is orthogonal: its transpose, the gradient's rotation, is the rotation by -angle.
void rope_apply_inverse(float* q, float* k, const int* positions, int tokens, int n_heads,
                        int n_kv_heads, int head_dim, cudaStream_t stream) {
    launch_rope(q, k, positions, tokens, n_heads, n_kv_heads, head_dim, -1.f, stream);
}

}  // namespace llama_ops
