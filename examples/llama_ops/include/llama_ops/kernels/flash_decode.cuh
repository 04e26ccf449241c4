// kernels/flash_decode.cuh - attention of one new query token per (batch, head) over a KV cache,
// contiguous or paged (LLaMA decoding), split over the keys ("flash decoding"); host side in
// src/flash_attention.cu.
//
// Decoding is bound by reading the cache, not by arithmetic, so these kernels use no tensor cores
// and run unchanged on every target. Grouped-query attention reads each kv head's keys and values
// once for all the query heads that share it.
//   split kernel    grid (splits, batch * kv_heads), kThreads threads: one chunk of kChunk keys
//                   for the `group` query heads of one kv head. Scores (8 lanes a key, width-8
//                   shuffles), the chunk's max and sum per head (8 lanes a head), the unnormalised
//                   P V (each thread 8 columns of one head, 10 KiB of shared memory a block);
//                   writes o, m, l of the chunk to a float workspace
//   combine kernel  grid batch * heads, head_dim threads: o = sum_s e^(m_s - M) o_s / sum_s e^(m_s
//   - M) l_s
// Like flash_attention.cuh, nothing depends on the warp width: groups of 8 lanes and whole-block
// barriers only.
//
// Paged caches (block_table): a row's address goes through the batch row's page table (one
// integer division per row read); per-sequence lengths (seq_lens): a split past its sequence's
// end writes an empty chunk (m = -inf, l = 0), which the combine kernel weighs by 0.
#pragma once

#include "llama_ops/flash_attention.h"
#include "llama_ops/portable.cuh"

namespace llama_ops {
namespace decode {

constexpr int kThreads = 128;
constexpr int kGroup = 8;     // lanes per key (scores) and per head (statistics)
constexpr int kChunk = 64;    // keys per split: many blocks even for one sequence
constexpr int kMaxGroup = 8;  // query heads per kv head (LLaMA-class GQA: 4 or 8)
constexpr float kLog2e = 1.4426950408889634f;

__device__ __forceinline__ const unsigned short* slice(const AttnTensor& t, int b, int h) {
    return static_cast<const unsigned short*>(t.data) + b * t.stride_batch + h * t.stride_head;
}

// Row j of kv head hk of batch row b, in a contiguous or a paged cache.
__device__ __forceinline__ const unsigned short* cache_row(const AttnTensor& t,
                                                           const FlashDecodeParams& p, int b,
                                                           int hk, int j) {
    if (!p.block_table) return slice(t, b, hk) + (long long)j * t.stride_row;
    const int page = p.block_table[(long long)b * p.max_pages + j / p.page_size];
    return static_cast<const unsigned short*>(t.data) + (long long)page * t.stride_batch +
           (long long)hk * t.stride_head + (long long)(j % p.page_size) * t.stride_row;
}

// Workspace floats per (batch, head, split): head_dim for o, then m and l.
template <class T, int D>
__global__ void __launch_bounds__(kThreads) flash_decode_split_kernel(FlashDecodeParams p) {
    constexpr int DW = D / 2;            // 32-bit words of a row
    constexpr int CPR = D / 8;           // 16-byte chunks of a row
    constexpr int KPP = kThreads / CPR;  // thread rows in the P V phase (8 for d=128, 16 for 64)
    static_assert(kMaxGroup <= KPP, "every head needs a slot of value rows");
    __shared__ float sQ[kMaxGroup][D];
    __shared__ float sS[kMaxGroup][kChunk];
    __shared__ float sO[KPP * D];  // the partial sums of slots 1.. of each head

    const int split = blockIdx.x, bk = blockIdx.y;
    const int b = bk / p.kv_heads, hk = bk % p.kv_heads;
    const int group = p.heads / p.kv_heads;
    const int j0 = split * kChunk;
    const int len = p.seq_lens ? p.seq_lens[b] : p.seq_k;
    const int n = len - j0 < kChunk ? len - j0 : kChunk;
    if (n <= 0) {  // past this sequence's end (seq_lens): an empty chunk, the block leaves at once
        for (int i = threadIdx.x; i < group * (D + 2); i += kThreads) {
            const int hq = i / (D + 2), d = i % (D + 2);
            const long long row = ((long long)b * p.heads + hk * group + hq) * gridDim.x + split;
            p.work[row * (D + 2) + d] = d == D ? -INFINITY : 0.f;
        }
        return;
    }

    for (int i = threadIdx.x; i < group * DW; i += kThreads) {
        const int hq = i / DW, w = i % DW;
        const unsigned* qrow = reinterpret_cast<const unsigned*>(slice(p.q, b, hk * group + hq));
        const float2 x = Pair16<T>::unpack(qrow[w]);
        sQ[hq][2 * w] = x.x * p.scale * kLog2e;
        sQ[hq][2 * w + 1] = x.y * p.scale * kLog2e;
    }
    __syncthreads();

    // Scores (log2 units): key j by the 8 lanes of row group threadIdx.x / 8, each lane 16 bytes
    // (8 elements) at a time: chunks tx + 8i of the row.
    const int tx = threadIdx.x % kGroup, ty = threadIdx.x / kGroup;
    constexpr int VPL = D / 8 / kGroup;  // 16-byte chunks per lane: 2 for d=128, 1 for 64
    for (int j = ty; j < kChunk; j += kThreads / kGroup) {
        float kv[8 * VPL];
        const uint4* krow =
            j < n ? reinterpret_cast<const uint4*>(cache_row(p.k, p, b, hk, j0 + j)) : nullptr;
#pragma unroll
        for (int i = 0; i < VPL; ++i) {
            const uint4 c = j < n ? krow[tx + kGroup * i] : make_uint4(0u, 0u, 0u, 0u);
            const unsigned w[4] = {c.x, c.y, c.z, c.w};
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float2 x = Pair16<T>::unpack(w[e]);
                kv[8 * i + 2 * e] = x.x;
                kv[8 * i + 2 * e + 1] = x.y;
            }
        }
#pragma unroll
        for (int hq = 0; hq < kMaxGroup; ++hq) {
            if (hq < group) {  // the same for the whole block: every lane reaches the shuffles
                float s = 0.f;
#pragma unroll
                for (int i = 0; i < VPL; ++i)
#pragma unroll
                    for (int e = 0; e < 8; ++e)
                        s = fmaf(kv[8 * i + e], sQ[hq][8 * (tx + kGroup * i) + e], s);
                s = group_sum<kGroup>(s);
                if (tx == 0) sS[hq][j] = j < n ? s : -INFINITY;
            }
        }
    }
    __syncthreads();

    // Max and sum of each head over the chunk (8 lanes a head); P in place of S.
    __shared__ float sM[kMaxGroup], sL[kMaxGroup];
    {
        const int hq = ty;
        float mx = -INFINITY;
        if (hq < group)
            for (int j = tx; j < kChunk; j += kGroup) mx = fmaxf(mx, sS[hq][j]);
        mx = group_max<kGroup>(mx);
        float sum = 0.f;
        if (hq < group)
            for (int j = tx; j < kChunk; j += kGroup) {
                const float e = exp2f(sS[hq][j] - mx);
                sS[hq][j] = e;
                sum += e;
            }
        sum = group_sum<kGroup>(sum);
        if (hq < group && tx == 0) {
            sM[hq] = mx;
            sL[hq] = sum;
        }
    }
    __syncthreads();

    // P V: thread (r, ch) owns columns 8ch .. 8ch+7 of head hq = r % group and sums keys s, s + S,
    // ... (s = r / group, S = KPP / group slots a head), reading 16 bytes of a value row at a time
    // (the group's heads read the same row: L1 hits). Eight accumulators a thread, whatever the
    // group; the slots of a head are added through shared memory, in slot order.
    const int ch = threadIdx.x % CPR, r = threadIdx.x / CPR;
    const int slots = KPP / group;  // >= 1: group <= kMaxGroup <= KPP
    const int hq = r % group, s = r / group;
    const bool pv = s < slots;      // the rows past group * slots idle (group not dividing KPP)
    float acc[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) acc[e] = 0.f;
    if (pv) {
#pragma unroll 2
        for (int j = s; j < n; j += slots) {
            const uint4 c = reinterpret_cast<const uint4*>(cache_row(p.v, p, b, hk, j0 + j))[ch];
            const unsigned w[4] = {c.x, c.y, c.z, c.w};
            const float pj = sS[hq][j];
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float2 f = Pair16<T>::unpack(w[e]);
                acc[2 * e] = fmaf(pj, f.x, acc[2 * e]);
                acc[2 * e + 1] = fmaf(pj, f.y, acc[2 * e + 1]);
            }
        }
        if (s > 0) {
#pragma unroll
            for (int e = 0; e < 8; ++e) sO[((s - 1) * group + hq) * D + 8 * ch + e] = acc[e];
        }
    }
    __syncthreads();
    if (pv && s == 0) {
        for (int s2 = 1; s2 < slots; ++s2)
#pragma unroll
            for (int e = 0; e < 8; ++e) acc[e] += sO[((s2 - 1) * group + hq) * D + 8 * ch + e];
        const long long row = ((long long)b * p.heads + hk * group + hq) * gridDim.x + split;
        float* dst = p.work + row * (D + 2);
#pragma unroll
        for (int e = 0; e < 8; ++e) dst[8 * ch + e] = acc[e];
        if (ch == 0) {
            dst[D] = sM[hq];
            dst[D + 1] = sL[hq];
        }
    }
}

template <class T, int D>
__global__ void __launch_bounds__(D) flash_decode_combine_kernel(FlashDecodeParams p, int splits) {
    const int bh = blockIdx.x, b = bh / p.heads, h = bh % p.heads, d = threadIdx.x;
    const float* rows = p.work + (long long)bh * splits * (D + 2);
    float mx = -INFINITY;
    for (int s = 0; s < splits; ++s) mx = fmaxf(mx, rows[s * (D + 2) + D]);
    float o = 0.f, l = 0.f;
    for (int s = 0; s < splits; ++s) {
        const float f = exp2f(rows[s * (D + 2) + D] - mx);
        o = fmaf(f, rows[s * (D + 2) + d], o);
        l = fmaf(f, rows[s * (D + 2) + D + 1], l);
    }
    unsigned short* out =
        static_cast<unsigned short*>(p.o.data) + b * p.o.stride_batch + h * p.o.stride_head;
    const float val = o / l;
    const unsigned pair = Pair16<T>::pack(val, 0.f);
    out[d] = (unsigned short)(pair & 0xffffu);
    if (d == 0 && p.lse) p.lse[bh] = (mx + log2f(l)) / kLog2e;
}

}  // namespace decode
}  // namespace llama_ops
