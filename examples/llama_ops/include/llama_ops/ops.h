// ops.h - host entry points of the operator library. Every function enqueues
// work on `stream` and returns without synchronising. Tensors are row-major
// and contiguous unless a leading dimension says otherwise. The cuBLAS-backed
// GEMMs are declared in gemm.h, so that only their users need the cuBLAS headers.
#pragma once

#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace llama_ops {

// ---- rmsnorm.cu -----------------------------------------------------------
// y = x / sqrt(mean(x^2) + eps) * weight, per row of `hidden` elements.
void rmsnorm(const float* x, const float* weight, float* y, int rows, int hidden,
             float eps, cudaStream_t stream);

// ---- rope.cu --------------------------------------------------------------
constexpr int kMaxHeadDim = 256;
// Uploads inv_freq[i] = theta^(-2i/head_dim) to constant memory. Call once.
void rope_init(int head_dim, float theta);
// Rotates q [tokens, n_heads, head_dim] and k [tokens, n_kv_heads, head_dim]
// in place ("rotate_half" convention of LLaMA in Hugging Face).
void rope_apply(float* q, float* k, const int* positions, int tokens, int n_heads,
                int n_kv_heads, int head_dim, cudaStream_t stream);

// Inverse rotation (the backward pass of rope_apply: the gradient rotates by -angle).
void rope_apply_inverse(float* q, float* k, const int* positions, int tokens, int n_heads,
                        int n_kv_heads, int head_dim, cudaStream_t stream);

// ---- softmax.cu -----------------------------------------------------------
// y = softmax(x * scale) over each row of `cols`.
void softmax(const float* x, float* y, int rows, int cols, float scale,
             cudaStream_t stream);

// ---- attention.cu ---------------------------------------------------------
// Naive causal scaled-dot-product attention. q, k, v, out: [batch, heads, seq,
// head_dim]. Returns false when the sequence does not fit in shared memory.
bool attention_causal(const float* q, const float* k, const float* v, float* out,
                      int batch, int heads, int seq, int head_dim, cudaStream_t stream);

// ---- topk.cu --------------------------------------------------------------
constexpr int kMaxTopK = 64;
// Per-row top-k (k <= kMaxTopK), sorted by value descending, ties by index.
void topk_rows(const float* logits, float* out_vals, int* out_idx, int rows, int cols,
               int k, cudaStream_t stream);

// ---- embedding.cu ---------------------------------------------------------
// out[t, :] = table[ids[t], :]; ids outside [0, vocab) give a zero row.
void embedding_lookup(const int* ids, const float* table, float* out, int tokens,
                      int hidden, int vocab, cudaStream_t stream);

// ---- swiglu.cu ------------------------------------------------------------
// out = silu(gate) * up, element-wise over n elements.
void swiglu(const float* gate, const float* up, float* out, int64_t n, cudaStream_t stream);
// out = silu(x), element-wise.
void silu_inplace(float* x, int64_t n, cudaStream_t stream);

// ---- backward.cu (kernels in kernels/backward.cuh) --------------------------------
// Gradients of rmsnorm: dx [rows, hidden] and dweight [hidden] (summed over rows in a fixed
// order). `workspace` holds rmsnorm_backward_workspace(rows, hidden) floats.
size_t rmsnorm_backward_workspace(int rows, int hidden);
void rmsnorm_backward(const float* x, const float* weight, const float* dy, float* dx,
                      float* dweight, int rows, int hidden, float eps, float* workspace,
                      cudaStream_t stream);
// Gradients of swiglu with respect to gate and up.
void swiglu_backward(const float* gate, const float* up, const float* dout, float* dgate,
                     float* dup, int64_t n, cudaStream_t stream);
// dtable = scatter-add of dout rows by token id (dtable [vocab, hidden] is overwritten).
void embedding_backward(const int* ids, const float* dout, float* dtable, int tokens, int hidden,
                        int vocab, cudaStream_t stream);

// ---- allreduce.cu ---------------------------------------------------------
// Sum-all-reduces a float buffer of `count` elements held once per visible
// device, with a single-process NCCL communicator. Returns the number of
// devices used and the max error against the expected sum, and the average
// time per all-reduce in microseconds.
struct AllReduceResult {
    int ndev = 0;
    double max_abs_err = 0.0;
    double avg_us = 0.0;
};
AllReduceResult allreduce_selftest(size_t count, int max_devices, int n_iter);

}  // namespace llama_ops
