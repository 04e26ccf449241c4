// flash_attention.cu - launchers of the FlashAttention kernels: kernels/flash_attention.cuh (scalar
// forward and backward), kernels/flash_attention_wmma.cuh and kernels/flash_backward_wmma.cuh
// (tensor-core forward and backward, LLAMA_OPS_WMMA), kernels/flash_decode.cuh (decoding over a
// KV cache).
#include <cstdint>
#include <type_traits>

#include "llama_ops/common.cuh"
#include "llama_ops/flash_attention.h"
#include "llama_ops/kernels/flash_attention.cuh"
#include "llama_ops/kernels/flash_decode.cuh"
#if LLAMA_OPS_WMMA
#include "llama_ops/kernels/flash_attention_wmma.cuh"
#include "llama_ops/kernels/flash_backward_wmma.cuh"
#endif

namespace llama_ops {
namespace {

bool g_use_wmma = LLAMA_OPS_WMMA != 0;

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

#if LLAMA_OPS_WMMA
bool aligned16(const AttnTensor& t) {
    return (reinterpret_cast<uintptr_t>(t.data) & 15u) == 0 && t.stride_batch % 8 == 0 &&
           t.stride_head % 8 == 0 && t.stride_row % 8 == 0;
}

// The device's warp width (32 on NVIDIA, 64 on CDNA wavefronts): the WMMA kernel runs kWarps of
// them.
int warp_width() {
    int dev = 0, width = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&width, cudaDevAttrWarpSize, dev));
    return width;
}

template <class T, int D>
void launch_forward_wmma(const FlashFwdParams& p, cudaStream_t stream) {
    using Sh = flash_wmma::FwdShape<D>;
    static const int width = warp_width();
    static bool attr_set = false;
    const size_t smem = Sh::smem_bytes;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(flash_wmma::flash_fwd_wmma_kernel<T, D>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        attr_set = true;
    }
    const dim3 grid(CEIL_DIV(p.seq_q, Sh::BM), p.batch * p.heads);
    flash_wmma::flash_fwd_wmma_kernel<T, D><<<grid, Sh::kWarps * width, smem, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
#endif

template <class T, int D>
void launch_forward(const FlashFwdParams& p, cudaStream_t stream) {
#if LLAMA_OPS_WMMA
    // bf16 has fragments unless the build says otherwise (LLAMA_OPS_WMMA_BF16=0)
    if constexpr (LLAMA_OPS_WMMA_BF16 || !std::is_same<T, bf16>::value) {
        static const int width = warp_width();  // the kernel knows 32- and 64-lane warps
        if (g_use_wmma && (width == 32 || width == 64) && aligned16(p.q) && aligned16(p.k) &&
            aligned16(p.v) && aligned16(p.o)) {
            launch_forward_wmma<T, D>(p, stream);
            return;
        }
    }
#endif
    const dim3 grid(CEIL_DIV(p.seq_q, flash::FwdShape<D>::BM), p.batch * p.heads);
    flash::flash_fwd_kernel<T, D><<<grid, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

#if LLAMA_OPS_WMMA
template <class T, int D>
void launch_backward_wmma(const FlashBwdParams& p, cudaStream_t stream) {
    using Sh = flash_wmma::BwdShape<D>;
    static const int width = warp_width();
    static bool attr_set = false;
    const size_t smem = Sh::smem_bytes;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(flash_wmma::flash_bwd_dkdv_wmma_kernel<T, D>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        CUDA_CHECK(cudaFuncSetAttribute(flash_wmma::flash_bwd_dq_wmma_kernel<T, D>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        attr_set = true;
    }
    const int kvh = p.kv_heads > 0 ? p.kv_heads : p.heads;
    const dim3 grid_kv(CEIL_DIV(p.seq_k, Sh::BM), p.batch * kvh);
    flash_wmma::flash_bwd_dkdv_wmma_kernel<T, D><<<grid_kv, Sh::kWarps * width, smem, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid_q(CEIL_DIV(p.seq_q, Sh::BM), p.batch * p.heads);
    flash_wmma::flash_bwd_dq_wmma_kernel<T, D><<<grid_q, Sh::kWarps * width, smem, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}
#endif

template <class T, int D>
void launch_backward(const FlashBwdParams& p, cudaStream_t stream) {
    const long long rows = (long long)p.batch * p.heads * p.seq_q;
    const int delta_blocks = (int)CEIL_DIV(rows, (long long)flash::kRowGroups);
    flash::flash_bwd_delta_kernel<T, D><<<delta_blocks, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
#if LLAMA_OPS_WMMA
    if constexpr (LLAMA_OPS_WMMA_BF16 || !std::is_same<T, bf16>::value) {
        static const int width = warp_width();
        if (g_use_wmma && (width == 32 || width == 64) && aligned16(p.q) && aligned16(p.k) &&
            aligned16(p.v) && aligned16(p.dout) && aligned16(p.dq) && aligned16(p.dk) &&
            aligned16(p.dv)) {
            launch_backward_wmma<T, D>(p, stream);
            return;
        }
    }
#endif
    const int kvh = p.kv_heads > 0 ? p.kv_heads : p.heads;
    const dim3 grid_kv(CEIL_DIV(p.seq_k, flash::BwdKVShape<D>::BM), p.batch * kvh);
    flash::flash_bwd_dkdv_kernel<T, D><<<grid_kv, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
    const dim3 grid_q(CEIL_DIV(p.seq_q, flash::BwdQShape<D>::BM), p.batch * p.heads);
    flash::flash_bwd_dq_kernel<T, D><<<grid_q, flash::kThreads, 0, stream>>>(p);
    CUDA_CHECK_LAUNCH();
}

// Splits of the decode: `per` tiles of kChunk keys each, as few as fill the device in one wave
// (batch * kv_heads * splits blocks, at most the resident blocks of the split kernel), without
// splitting below one tile; p.split_tiles overrides.
int decode_tiles_per_split(const FlashDecodeParams& p, int resident) {
    if (p.split_tiles > 0) return p.split_tiles;
    const long long tiles = CEIL_DIV((long long)p.seq_k, (long long)decode::kChunk);
    const long long units = (long long)p.batch * p.kv_heads;
    const long long per = CEIL_DIV(tiles * units, (long long)(resident > 0 ? resident : 1));
    return (int)(per < 1 ? 1 : per > tiles ? tiles : per);
}

template <class T, int D, int G>
void launch_decode_group(const FlashDecodeParams& p, cudaStream_t stream) {
    static const int resident = [] {
        int dev = 0, sms = 0, per_sm = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, decode::flash_decode_split_kernel<T, D, G>, decode::kThreads, 0) !=
                cudaSuccess)
            return 400;
        return (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
    }();
    const int per = decode_tiles_per_split(p, resident);
    const int splits = CEIL_DIV(CEIL_DIV(p.seq_k, decode::kChunk), per);
    const dim3 grid(splits, p.batch * p.kv_heads);
    decode::flash_decode_split_kernel<T, D, G><<<grid, decode::kThreads, 0, stream>>>(p, per);
    CUDA_CHECK_LAUNCH();
    decode::flash_decode_combine_kernel<T, D>
        <<<p.batch * p.heads, decode::kCombineThreads, splits * sizeof(float), stream>>>(p, splits);
    CUDA_CHECK_LAUNCH();
}

template <class T, int D>
void launch_decode(const FlashDecodeParams& p, cudaStream_t stream) {
    const int group = p.heads / p.kv_heads;
    if (group <= 1) launch_decode_group<T, D, 1>(p, stream);
    else if (group <= 2) launch_decode_group<T, D, 2>(p, stream);
    else if (group <= 4) launch_decode_group<T, D, 4>(p, stream);
    else launch_decode_group<T, D, 8>(p, stream);
}

}  // namespace

long long flash_decode_workspace_floats(int batch, int heads, int seq_k, int head_dim) {
    const long long splits = CEIL_DIV((long long)seq_k, (long long)decode::kChunk);
    return (long long)batch * heads * splits * (head_dim + 2);
}

const char* flash_attention_decode(const FlashDecodeParams& p, int head_dim, Float16Kind kind,
                                   cudaStream_t stream) {
    if (const char* why = check_shape(head_dim, p.batch, p.heads, 1, p.seq_k)) return why;
    if (!word_aligned(p.q) || !word_aligned(p.v) || !word_aligned(p.o))
        return "tensors must be 4-byte aligned with even strides";
    for (const AttnTensor* t : {&p.k, &p.v})
        if ((reinterpret_cast<uintptr_t>(t->data) & 15u) != 0 || t->stride_batch % 8 != 0 ||
            t->stride_head % 8 != 0 || t->stride_row % 8 != 0)
            return "the KV cache must be 16-byte aligned with strides a multiple of 8";
    if (p.kv_heads < 1 || p.heads % p.kv_heads != 0) return "kv_heads must divide heads";
    if (p.heads / p.kv_heads > decode::kMaxGroup) return "more than 8 query heads per kv head";
    if ((long long)p.batch * p.kv_heads > 65535) return "batch * kv_heads above 65535";
    if (!p.work) return "decode needs a workspace (flash_decode_workspace_floats)";
    if (CEIL_DIV(p.seq_k, decode::kChunk) > 12 * 1024)
        return "decode: more than 786432 keys (the combine kernel's weights fill 48 KiB)";
    if (p.split_tiles < 0) return "split_tiles must be >= 0";
    if (p.block_table && (p.page_size < 1 || p.max_pages < CEIL_DIV(p.seq_k, p.page_size)))
        return "a paged cache needs page_size >= 1 and max_pages >= ceil(seq_k / page_size)";
    if (kind == Float16Kind::f16) {
        if (head_dim == 64) launch_decode<__half, 64>(p, stream);
        else launch_decode<__half, 128>(p, stream);
    } else {
        if (head_dim == 64) launch_decode<bf16, 64>(p, stream);
        else launch_decode<bf16, 128>(p, stream);
    }
    return nullptr;
}

const char* flash_attention_forward(const FlashFwdParams& p, int head_dim, Float16Kind kind,
                                    cudaStream_t stream) {
    if (const char* why = check_shape(head_dim, p.batch, p.heads, p.seq_q, p.seq_k)) return why;
    if (!word_aligned(p.q) || !word_aligned(p.k) || !word_aligned(p.v) || !word_aligned(p.o))
        return "tensors must be 4-byte aligned with even strides";
    if (p.kv_heads < 0 || (p.kv_heads > 0 && p.heads % p.kv_heads != 0))
        return "kv_heads must divide heads";
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
    if (p.kv_heads < 0 || (p.kv_heads > 0 && p.heads % p.kv_heads != 0))
        return "kv_heads must divide heads";
    if (kind == Float16Kind::f16) {
        if (head_dim == 64) launch_backward<__half, 64>(p, stream);
        else launch_backward<__half, 128>(p, stream);
    } else {
        if (head_dim == 64) launch_backward<bf16, 64>(p, stream);
        else launch_backward<bf16, 128>(p, stream);
    }
    return nullptr;
}

bool flash_attention_wmma_built() { return LLAMA_OPS_WMMA != 0; }

void flash_attention_use_wmma(bool on) { g_use_wmma = on && LLAMA_OPS_WMMA != 0; }

}  // namespace llama_ops
