// kernels/backward.cuh - backward kernels of RMSNorm, SwiGLU and the embedding lookup, for
// training on the operator library (host side: src/backward.cu). Written without any
// assumption on the warp width (portable.cuh).
#pragma once

#include <cstdint>

#include "llama_ops/portable.cuh"

namespace llama_ops {
namespace bwd {

constexpr int kRmsThreads = 256;
constexpr int kRmsChunk = 64;  // rows summed per block of the weight-gradient pass

// y = x * r * w with r = (mean(x^2) + eps)^(-1/2), per row:
//   dx = r * (w*dy) - x * r^3 * sum(w*dy*x) / hidden,   and r is kept for the weight gradient.
template <int NT>
__global__ void __launch_bounds__(NT)
rmsnorm_backward_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                        const float* __restrict__ dy, float* __restrict__ dx,
                        float* __restrict__ rstd_out, int hidden, float eps) {
    const int row = blockIdx.x;
    const float* xr = x + (size_t)row * hidden;
    const float* gr = dy + (size_t)row * hidden;
    float ss = 0.f, dot = 0.f;
    for (int i = threadIdx.x; i < hidden; i += NT) {
        const float xv = xr[i];
        ss = fmaf(xv, xv, ss);
        dot = fmaf(weight[i] * gr[i], xv, dot);
    }
    ss = block_sum<NT>(ss);
    dot = block_sum<NT>(dot);
    const float r = rsqrtf(ss / hidden + eps);
    const float k = r * r * r * dot / hidden;
    float* dr = dx + (size_t)row * hidden;
    for (int i = threadIdx.x; i < hidden; i += NT) dr[i] = r * weight[i] * gr[i] - xr[i] * k;
    if (threadIdx.x == 0) rstd_out[row] = r;
}

// partial[chunk, i] = sum over the chunk's rows of dy * x * r: one column per thread, so the
// sum runs in row order and the result does not depend on the launch.
__global__ void rmsnorm_dweight_partial_kernel(const float* __restrict__ x, const float* __restrict__ dy,
                                               const float* __restrict__ rstd,
                                               float* __restrict__ partial, int rows, int hidden) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int chunk = blockIdx.y;
    if (i >= hidden) return;
    const int r0 = chunk * kRmsChunk;
    const int r1 = r0 + kRmsChunk < rows ? r0 + kRmsChunk : rows;
    float acc = 0.f;
    for (int r = r0; r < r1; ++r) acc = fmaf(dy[(size_t)r * hidden + i] * x[(size_t)r * hidden + i], rstd[r], acc);
    partial[(size_t)chunk * hidden + i] = acc;
}

__global__ void sum_columns_kernel(const float* __restrict__ partial, float* __restrict__ out, int chunks,
                                   int hidden) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= hidden) return;
    float acc = 0.f;
    for (int c = 0; c < chunks; ++c) acc += partial[(size_t)c * hidden + i];
    out[i] = acc;
}

// out = silu(g) * u:  dg = dout * u * s * (1 + g * (1 - s)),  du = dout * silu(g),  s = sigmoid(g).
__global__ void swiglu_backward_kernel(const float* __restrict__ gate, const float* __restrict__ up,
                                       const float* __restrict__ dout, float* __restrict__ dgate,
                                       float* __restrict__ dup, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const float g = gate[i], s = 1.f / (1.f + expf(-g));
        dgate[i] = dout[i] * up[i] * s * (1.f + g * (1.f - s));
        dup[i] = dout[i] * g * s;
    }
}

// dtable[ids[t], :] += dout[t, :] (dtable zeroed before); ids outside [0, vocab) contribute
// nothing, as their rows were zero in the forward pass. Float atomics: the order of the
// additions into one row, and so its last bits, may differ from run to run.
__global__ void embedding_backward_kernel(const int* __restrict__ ids, const float* __restrict__ dout,
                                          float* __restrict__ dtable, int tokens, int hidden, int vocab) {
    const int64_t n = (int64_t)tokens * hidden;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n;
         e += (int64_t)gridDim.x * blockDim.x) {
        const int t = (int)(e / hidden), i = (int)(e % hidden);
        const int id = ids[t];
        if (id >= 0 && id < vocab) atomicAdd(&dtable[(size_t)id * hidden + i], dout[e]);
    }
}

}  // namespace bwd
}  // namespace llama_ops
