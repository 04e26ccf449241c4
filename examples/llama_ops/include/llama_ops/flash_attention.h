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

// The forward and backward passes have two implementations, chosen when the library is built:
//   LLAMA_OPS_WMMA=1  tensor cores through WMMA 16x16x16 fragments (kernels/flash_attention_wmma.cuh,
//                     kernels/flash_backward_wmma.cuh; rocWMMA after `ferry migrate --to hip`:
//                     gfx908, gfx90a, gfx942)
//   LLAMA_OPS_WMMA=0  scalar FMA (kernels/flash_attention.cuh), for targets without matrix cores
//                     (gfx906, Hygon DCUs)
// Default: 1 for CUDA; 0 for HIP, where rocWMMA is a separate library that needs matrix cores
// (build the port with -DLLAMA_OPS_WMMA=1 for gfx908/gfx90a/gfx942).
#ifndef LLAMA_OPS_WMMA
#if defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_WMMA 0
#else
#define LLAMA_OPS_WMMA 1
#endif
#endif

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
    int kv_heads = 0;  // grouped-query attention: heads of k and v (0: = heads); divides heads
    float scale = 1.f;
    int causal = 0;
};

struct FlashBwdParams {
    AttnTensor q, k, v, o, dout;  // read (o and lse from the forward pass)
    AttnTensor dq, dk, dv;        // written
    const float* lse = nullptr;   // [B, H, seq_q]
    float* delta = nullptr;       // workspace [B, H, seq_q]: rowsum(dout * o)
    int batch = 0, heads = 0, seq_q = 0, seq_k = 0;
    int kv_heads = 0;  // grouped-query attention: heads of k, v, dk and dv (0: = heads)
    float scale = 1.f;
    int causal = 0;
};

// Decoding: one query row per (batch, head) against seq_k rows of a KV cache (q and o index row 0
// only). kv_heads divides heads (grouped-query attention; at most 8 query heads per kv head).
// work: flash_decode_workspace_floats(...) floats of device memory.
// Contiguous cache (block_table null): key j of (b, kv head h) at k.data + b*stride_batch +
// h*stride_head + j*stride_row. Paged cache (block_table set): the cache is a pool of pages of
// page_size rows, and k.stride_batch is the stride between pages: key j of batch b is at
// k.data + page*stride_batch + h*stride_head + (j % page_size)*stride_row with page =
// block_table[b*max_pages + j / page_size] (vLLM's layout is [pages, page_size, kv_heads, D]:
// stride_batch = page_size*kv_heads*D, stride_head = D, stride_row = kv_heads*D).
// seq_lens (optional, device memory): keys of each batch row (1 .. seq_k); null: seq_k for all.
struct FlashDecodeParams {
    AttnTensor q, k, v;  // read
    AttnTensor o;        // written
    float* lse = nullptr;  // [B, H] or null
    float* work = nullptr;
    int batch = 0, heads = 0, kv_heads = 0, seq_k = 0;
    float scale = 1.f;
    const int* block_table = nullptr;  // [batch, max_pages] page indices, or null (contiguous)
    int page_size = 0, max_pages = 0;
    const int* seq_lens = nullptr;     // [batch] or null
    int split_tiles = 0;  // 64-key tiles per split; 0: enough splits to fill the device
};

// Why a call was refused (nothing was launched), or null when it was enqueued.
// Head dimensions 64 and 128; 16-bit elements in pairs, so data must be 4-byte aligned and
// every stride even; sequences of at least one row; batch * heads < 65536.
const char* flash_attention_forward(const FlashFwdParams& p, int head_dim, Float16Kind kind,
                                    cudaStream_t stream);
const char* flash_attention_backward(const FlashBwdParams& p, int head_dim, Float16Kind kind,
                                     cudaStream_t stream);

// Decoding (FlashDecodeParams); the KV cache must also be 16-byte aligned, strides multiples of 8.
long long flash_decode_workspace_floats(int batch, int heads, int seq_k, int head_dim);
const char* flash_attention_decode(const FlashDecodeParams& p, int head_dim, Float16Kind kind,
                                   cudaStream_t stream);

// Which kernels flash_attention_forward and flash_attention_backward launch: the tensor-core ones
// when the library is built with LLAMA_OPS_WMMA=1 and the tensors are 16-byte aligned with strides
// multiples of 8, else the scalar ones (the backward's delta kernel is scalar on every path).
// flash_attention_use_wmma(false) forces the scalar kernels (benchmarks, checks); true restores
// the default.
bool flash_attention_wmma_built();
void flash_attention_use_wmma(bool on);

}  // namespace llama_ops
