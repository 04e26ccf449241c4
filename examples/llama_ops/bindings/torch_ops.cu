// torch_ops.cu - a C interface to the operators for Python (ctypes): device pointers and the
// caller's stream, nothing else, so the library depends on no PyTorch header or ABI. The PyTorch
// side (python/llama_ops_torch/) registers these as autograd operators. GEMMs: torch_gemm.cu.
//
// Every function returns 0 when the work was enqueued, 1 when it was refused (the reason is in
// llama_last_error()). CUDA errors end the process, as everywhere in this library (CUDA_CHECK).
#include <cstdio>

#include "llama_ops/common.cuh"
#include "llama_ops/flash_attention.h"
#include "llama_ops/ops.h"

namespace {

char g_error[256] = "";

int refuse(const char* why) {
    std::snprintf(g_error, sizeof g_error, "%s", why);
    return 1;
}

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

llama_ops::AttnTensor tensor(void* data, const long long* strides) {
    llama_ops::AttnTensor t;
    t.data = data;
    t.stride_batch = strides[0];
    t.stride_head = strides[1];
    t.stride_row = strides[2];
    return t;
}

}  // namespace

extern "C" {

const char* llama_last_error() { return g_error; }

int llama_rmsnorm(const float* x, const float* weight, float* y, int rows, int hidden, float eps,
                  void* stream) {
    llama_ops::rmsnorm(x, weight, y, rows, hidden, eps, as_stream(stream));
    return 0;
}

long long llama_rmsnorm_backward_workspace(int rows, int hidden) {
    return (long long)llama_ops::rmsnorm_backward_workspace(rows, hidden);
}

int llama_rmsnorm_backward(const float* x, const float* weight, const float* dy, float* dx,
                           float* dweight, int rows, int hidden, float eps, float* workspace,
                           void* stream) {
    llama_ops::rmsnorm_backward(x, weight, dy, dx, dweight, rows, hidden, eps, workspace,
                                as_stream(stream));
    return 0;
}

// Rotates q [tokens, n_heads, head_dim] and k [tokens, n_kv_heads, head_dim] in place (inverse:
// the backward rotation). The frequency table is uploaded when head_dim or theta change.
int llama_rope(float* q, float* k, const int* positions, int tokens, int n_heads, int n_kv_heads,
               int head_dim, float theta, int inverse, void* stream) {
    static int table_dim = 0;
    static float table_theta = 0.f;
    if (head_dim > llama_ops::kMaxHeadDim || head_dim % 2 != 0) return refuse("unsupported head_dim");
    if (head_dim != table_dim || theta != table_theta) {
        CUDA_CHECK(cudaStreamSynchronize(as_stream(stream)));  // no kernel may read the old table
        llama_ops::rope_init(head_dim, theta);
        table_dim = head_dim;
        table_theta = theta;
    }
    if (inverse)
        llama_ops::rope_apply_inverse(q, k, positions, tokens, n_heads, n_kv_heads, head_dim,
                                      as_stream(stream));
    else
        llama_ops::rope_apply(q, k, positions, tokens, n_heads, n_kv_heads, head_dim, as_stream(stream));
    return 0;
}

int llama_swiglu(const float* gate, const float* up, float* out, long long n, void* stream) {
    llama_ops::swiglu(gate, up, out, n, as_stream(stream));
    return 0;
}

int llama_swiglu_backward(const float* gate, const float* up, const float* dout, float* dgate,
                          float* dup, long long n, void* stream) {
    llama_ops::swiglu_backward(gate, up, dout, dgate, dup, n, as_stream(stream));
    return 0;
}

int llama_embedding(const int* ids, const float* table, float* out, int tokens, int hidden,
                    int vocab, void* stream) {
    llama_ops::embedding_lookup(ids, table, out, tokens, hidden, vocab, as_stream(stream));
    return 0;
}

int llama_embedding_backward(const int* ids, const float* dout, float* dtable, int tokens,
                             int hidden, int vocab, void* stream) {
    llama_ops::embedding_backward(ids, dout, dtable, tokens, hidden, vocab, as_stream(stream));
    return 0;
}

int llama_softmax(const float* x, float* y, int rows, int cols, float scale, void* stream) {
    llama_ops::softmax(x, y, rows, cols, scale, as_stream(stream));
    return 0;
}

int llama_topk(const float* logits, float* values, int* indices, int rows, int cols, int k,
               void* stream) {
    if (k < 1 || k > llama_ops::kMaxTopK || k > cols) return refuse("k out of range");
    llama_ops::topk_rows(logits, values, indices, rows, cols, k, as_stream(stream));
    return 0;
}

int llama_attention_causal(const float* q, const float* k, const float* v, float* out, int batch,
                           int heads, int seq, int head_dim, void* stream) {
    if (!llama_ops::attention_causal(q, k, v, out, batch, heads, seq, head_dim, as_stream(stream)))
        return refuse("sequence too long for the naive kernel's shared memory");
    return 0;
}

// Flash attention forward with grouped-query attention: k and v have kv_heads heads (dividing
// heads; 0: = heads). strides: (batch, head, row) of q, k, v, o. bf16 != 0: bfloat16, else fp16.
int llama_flash_forward_gqa(void* q, void* k, void* v, void* o, float* lse, const long long* strides,
                            int batch, int heads, int kv_heads, int seq_q, int seq_k, int head_dim,
                            float scale, int causal, int bf16, void* stream) {
    llama_ops::FlashFwdParams p;
    p.q = tensor(q, strides);
    p.k = tensor(k, strides + 3);
    p.v = tensor(v, strides + 6);
    p.o = tensor(o, strides + 9);
    p.lse = lse;
    p.batch = batch;
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.seq_q = seq_q;
    p.seq_k = seq_k;
    p.scale = scale;
    p.causal = causal;
    const char* why = llama_ops::flash_attention_forward(
        p, head_dim, bf16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16,
        as_stream(stream));
    return why ? refuse(why) : 0;
}

// strides: (batch, head, row) of q, k, v, o. bf16 != 0: bfloat16, else fp16.
int llama_flash_forward(void* q, void* k, void* v, void* o, float* lse, const long long* strides,
                        int batch, int heads, int seq_q, int seq_k, int head_dim, float scale,
                        int causal, int bf16, void* stream) {
    return llama_flash_forward_gqa(q, k, v, o, lse, strides, batch, heads, 0 /* kv_heads: = heads */,
                                   seq_q, seq_k, head_dim, scale, causal, bf16, stream);
}

// One query token per (batch, head) over a contiguous KV cache; strides: q, k, v, o (q and o: row
// 0). work: llama_flash_decode_workspace(...) floats.
long long llama_flash_decode_workspace(int batch, int heads, int seq_k, int head_dim) {
    return llama_ops::flash_decode_workspace_floats(batch, heads, seq_k, head_dim);
}

int llama_flash_decode(void* q, void* k, void* v, void* o, float* lse, float* work,
                       const long long* strides, int batch, int heads, int kv_heads, int seq_k,
                       int head_dim, float scale, int bf16, void* stream) {
    llama_ops::FlashDecodeParams p;
    p.q = tensor(q, strides);
    p.k = tensor(k, strides + 3);
    p.v = tensor(v, strides + 6);
    p.o = tensor(o, strides + 9);
    p.lse = lse;
    p.work = work;
    p.batch = batch;
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.seq_k = seq_k;
    p.scale = scale;
    const char* why = llama_ops::flash_attention_decode(
        p, head_dim, bf16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16,
        as_stream(stream));
    return why ? refuse(why) : 0;
}

// llama_flash_decode over a paged cache: k and v are pools of pages, their strides (page, head,
// row) in elements; block_table [batch, max_pages] page indices and seq_lens [batch] (or null: seq_k
// for all) in device memory.
int llama_flash_decode_paged(void* q, void* k, void* v, void* o, float* lse, float* work,
                             const long long* strides, const int* block_table, int page_size,
                             int max_pages, const int* seq_lens, int batch, int heads, int kv_heads,
                             int seq_k, int head_dim, float scale, int bf16, void* stream) {
    llama_ops::FlashDecodeParams p;
    p.q = tensor(q, strides);
    p.k = tensor(k, strides + 3);
    p.v = tensor(v, strides + 6);
    p.o = tensor(o, strides + 9);
    p.lse = lse;
    p.work = work;
    p.batch = batch;
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.seq_k = seq_k;
    p.scale = scale;
    p.block_table = block_table;
    p.page_size = page_size;
    p.max_pages = max_pages;
    p.seq_lens = seq_lens;
    const char* why = llama_ops::flash_attention_decode(
        p, head_dim, bf16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16,
        as_stream(stream));
    return why ? refuse(why) : 0;
}

// on = 0 forces the scalar forward and backward kernels, 1 restores the default; returns 1 when the
// tensor-core kernels are now in use (the library was built with LLAMA_OPS_WMMA=1), else 0.
int llama_flash_use_wmma(int on) {
    llama_ops::flash_attention_use_wmma(on != 0);
    return on != 0 && llama_ops::flash_attention_wmma_built() ? 1 : 0;
}

// llama_flash_backward with grouped-query attention: k, v, dk and dv have kv_heads heads.
int llama_flash_backward_gqa(void* q, void* k, void* v, void* o, void* dout, void* dq, void* dk,
                             void* dv, const float* lse, float* delta, const long long* strides,
                             int batch, int heads, int kv_heads, int seq_q, int seq_k, int head_dim,
                             float scale, int causal, int bf16, void* stream) {
    llama_ops::FlashBwdParams p;
    p.q = tensor(q, strides);
    p.k = tensor(k, strides + 3);
    p.v = tensor(v, strides + 6);
    p.o = tensor(o, strides + 9);
    p.dout = tensor(dout, strides + 12);
    p.dq = tensor(dq, strides + 15);
    p.dk = tensor(dk, strides + 18);
    p.dv = tensor(dv, strides + 21);
    p.lse = lse;
    p.delta = delta;
    p.batch = batch;
    p.heads = heads;
    p.kv_heads = kv_heads;
    p.seq_q = seq_q;
    p.seq_k = seq_k;
    p.scale = scale;
    p.causal = causal;
    const char* why = llama_ops::flash_attention_backward(
        p, head_dim, bf16 ? llama_ops::Float16Kind::bf16 : llama_ops::Float16Kind::f16,
        as_stream(stream));
    return why ? refuse(why) : 0;
}

// strides: q, k, v, o, dout, dq, dk, dv; delta: a [batch, heads, seq_q] float workspace.
int llama_flash_backward(void* q, void* k, void* v, void* o, void* dout, void* dq, void* dk,
                         void* dv, const float* lse, float* delta, const long long* strides,
                         int batch, int heads, int seq_q, int seq_k, int head_dim, float scale,
                         int causal, int bf16, void* stream) {
    return llama_flash_backward_gqa(q, k, v, o, dout, dq, dk, dv, lse, delta, strides, batch, heads,
                                    0 /* kv_heads: = heads */, seq_q, seq_k, head_dim, scale, causal,
                                    bf16, stream);
}

}  // extern "C"
