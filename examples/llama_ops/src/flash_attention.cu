// flash_attention.cu - launchers of the FlashAttention kernels (kernels/flash_attention.cuh).
#include <cstdint>

#include "llama_ops/common.cuh"
#include "llama_ops/flash_attention.h"
#include "llama_ops/kernels/flash_attention.cuh"

namespace llama_ops {
namespace {

bool word_aligned(const AttnTensor& t) {
    return (reinterpret_cast<uintptr_t>(t.data) & 3u) == 0 && t.stride_batch % 2 == 0 &&
           t.stride_head % 2 == 0 && t.stride_row % 2 == 0;
}

const char* check_shape(int head_dim, int batch, int heads, int seq_q, int seq_k) {
    if (head_dim != 64 && head_dim != 128) return "head dimension must be 64 or 128";
    if (batch < 1 || heads < 1 || seq_q < 1 || seq_k < 1) return "empty batch, heads or sequence";
    if ((long long)batch * heads > 65535) return "batch * heads above 65535";
    return nullptr;
}

template <class T, int D>
void launch_forward(const FlashFwdParams& p, cudaStream_t stream) {
    const dim3 grid(CEIL_DIV(p.seq_q, flash::FwdShape<D>::BM), p.batch * p.heads);
    flash::flash_fwd_kernel<T, D><<<grid, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

template <class T, int D>
void launch_backward(const FlashBwdParams& p, cudaStream_t stream) {
    const long long rows = (long long)p.batch * p.heads * p.seq_q;
    const int delta_blocks = (int)CEIL_DIV(rows, (long long)flash::kRowGroups);
    flash::flash_bwd_delta_kernel<T, D><<<delta_blocks, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid_kv(CEIL_DIV(p.seq_k, flash::BwdKVShape<D>::BM), p.batch * p.heads);
    flash::flash_bwd_dkdv_kernel<T, D><<<grid_kv, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid_q(CEIL_DIV(p.seq_q, flash::BwdQShape<D>::BM), p.batch * p.heads);
    flash::flash_bwd_dq_kernel<T, D><<<grid_q, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

}  // namespace

const char* flash_attention_forward(const FlashFwdParams& p, int head_dim, Float16Kind kind,
                                    cudaStream_t stream) {
    if (const char* why = check_shape(head_dim, p.batch, p.heads, p.seq_q, p.seq_k)) return why;
    if (!word_aligned(p.q) || !word_aligned(p.k) || !word_aligned(p.v) || !word_aligned(p.o))
        return "tensors must be 4-byte aligned with even strides";
    if (kind == Float16Kind::f16) {
        if (head_dim == 64) launch_forward<__half, 64>(p, stream);
        else launch_forward<__half, 128>(p, stream);
    } else {
        if (head_dim == 64) launch_forward<bf16, 64>(p, stream);
        else launch_forward<bf16, 128>(p, stream);
    }
    return nullptr;
}

const char* flash_attention_backward(const FlashBwdParams& p, int head_dim, Float16Kind kind,
                                     cudaStream_t stream) {
    if (const char* why = check_shape(head_dim, p.batch, p.heads, p.seq_q, p.seq_k)) return why;
    for (const AttnTensor* t : {&p.q, &p.k, &p.v, &p.o, &p.dout, &p.dq, &p.dk, &p.dv})
        if (!word_aligned(*t)) return "tensors must be 4-byte aligned with even strides";
    if (!p.lse || !p.delta) return "backward needs the forward's lse and a delta workspace";
    if (kind == Float16Kind::f16) {
        if (head_dim == 64) launch_backward<__half, 64>(p, stream);
        else launch_backward<__half, 128>(p, stream);
    } else {
        if (head_dim == 64) launch_backward<bf16, 64>(p, stream);
        else launch_backward<bf16, 128>(p, stream);
    }
    return nullptr;
}

}  // namespace llama_ops
