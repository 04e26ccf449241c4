// flash_attention.h - host API of the FlashAttention kernels (flash_attention.cu; kernels in
// kernels/flash_attention.cuh).
//
// softmax(scale * Q K^T [+ causal mask]) V for fp16 or bf16 tensors of head dimension 64 or
// 128, never forming the score matrix: tiles of K and V stream through shared memory and the
// softmax is computed online (running max and sum per row, FlashAttention-2). The forward pass
// also writes the log-sum-exp of every row; the backward pass recomputes the probabilities from
// it instead of storing them. All arithmetic is in float; inputs and outputs are 16-bit.
//
// Layout: element (b, h, i, d) of a tensor is at data + b*stride_batch + h*stride_head +
// i*stride_row + d (strides in elements): [B, H, S, D] and [B, S, H, D] views both work, the head
// dimension must be contiguous. The causal mask hides key j from query i when j > i (the
// top-left convention of torch's scaled_dot_product_attention(is_causal=True)).
#pragma once

#include <cuda_runtime.h>

namespace llama_ops {

enum class Float16Kind { f16, bf16 };

struct AttnTensor {
    void* data = nullptr;
    long long stride_batch = 0, stride_head = 0, stride_row = 0;
};

struct FlashFwdParams {
    AttnTensor q, k, v;  // read
    AttnTensor o;        // written
    float* lse = nullptr;  // [B, H, seq_q] natural-log log-sum-exp of the scaled scores, or null
    int batch = 0, heads = 0, seq_q = 0, seq_k = 0;
    float scale = 1.f;
    int causal = 0;
};

struct FlashBwdParams {
    AttnTensor q, k, v, o, dout;  // read (o and lse from the forward pass)
    AttnTensor dq, dk, dv;        // written
    const float* lse = nullptr;   // [B, H, seq_q]
    float* delta = nullptr;       // workspace [B, H, seq_q]: rowsum(dout * o)
    int batch = 0, heads = 0, seq_q = 0, seq_k = 0;
    float scale = 1.f;
    int causal = 0;
};

// Why a call was refused (nothing was launched), or null when it was enqueued.
// Head dimensions 64 and 128; 16-bit elements in pairs, so data must be 4-byte aligned and
// every stride even; sequences of at least one row; batch * heads < 65536.
const char* flash_attention_forward(const FlashFwdParams& p, int head_dim, Float16Kind kind,
                                    cudaStream_t stream);
const char* flash_attention_backward(const FlashBwdParams& p, int head_dim, Float16Kind kind,
                                     cudaStream_t stream);

}  // namespace llama_ops
