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
//   combine kernel  grid batch * heads, kCombineThreads threads: o = sum_s e^(m_s - M) o_s /
//                   sum_s e^(m_s - M) l_s
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

// 1: the next tile's values are loaded with its keys, right after this tile's scores (a second
// set of value registers, 32 more a thread for d = 128); 0: after this tile's P V.
#ifndef LLAMA_OPS_DECODE_VPRE
#define LLAMA_OPS_DECODE_VPRE 0
#endif

constexpr int kThreads = 128;
constexpr int kCombineThreads = 256;  // the combine kernel: 8 (d = 128) or 16 split lanes
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

// One split: `tiles` tiles of kChunk keys from key split * tiles * kChunk, for the G (a template
// bound: 1, 2, 4 or 8) query heads `group` <= G of kv head hk. Per tile, every thread issues its
// loads first — the key rows it scores and the value rows it accumulates, 16 bytes each, up to
// 16 of them in flight; those of the next tile are issued as soon as this tile's registers are
// consumed — and then:
//   scores   key j by the 8 lanes of row group ty (width-8 shuffles), each lane 8 * VPL columns
//            of q (float, pre-scaled by scale * log2 e) against its part of the key row
//   softmax  8 lanes a head: the tile's max, the running max m (log2 units) and sum l, the factor
//            of the accumulator; P in place of S
//   P V      thread (r, ch) owns columns 8ch .. 8ch+7 of every head and keys r, r + KPP, ...: each
//            value row is read once for the whole group
// At the end the KPP key slots of each head are added through shared memory (in slot order) and
// the split's o, m, l go to the workspace: head_dim floats for o, then m and l.
template <typename T, int D, int G>
__global__ void __launch_bounds__(kThreads) flash_decode_split_kernel(FlashDecodeParams p,
                                                                       int tiles) {
    constexpr int DW = D / 2;            // 32-bit words of a row
    constexpr int CPR = D / 8;           // 16-byte chunks of a row
    constexpr int KPP = kThreads / CPR;  // key slots in the P V phase (8 for d=128, 16 for 64)
    constexpr int VPL = D / 8 / kGroup;  // 16-byte chunks per lane in the scores: 2 (d=128), 1
    constexpr int KPT = kChunk / (kThreads / kGroup);  // keys a row group scores: 4
    constexpr int VPT = kChunk / KPP;                   // value rows a thread reads: 8 or 4
    static_assert(G <= kThreads / kGroup, "a row group per head in the softmax");
    __shared__ float sQ[G][D];
    __shared__ float sS[G][kChunk];
    __shared__ float sA[G];           // the factor of the accumulator for this tile
    __shared__ float sO[KPP * G * D];  // the key slots' partial sums, at the end

    const int split = blockIdx.x, bk = blockIdx.y;
    const int b = bk / p.kv_heads, hk = bk % p.kv_heads;
    const int group = p.heads / p.kv_heads;
    const int len = p.seq_lens ? p.seq_lens[b] : p.seq_k;
    const int j0 = split * tiles * kChunk;
    if (j0 >= len) {  // past this sequence's end (seq_lens): an empty chunk, the block leaves
        for (int i = threadIdx.x; i < group * (D + 2); i += kThreads) {
            const int hq = i / (D + 2), d = i % (D + 2);
            const long long row = ((long long)b * p.heads + hk * group + hq) * gridDim.x + split;
            p.work[row * (D + 2) + d] = d == D ? -INFINITY : 0.f;
        }
        return;
    }
    int n_tiles = (len - j0 + kChunk - 1) / kChunk;
    n_tiles = n_tiles < tiles ? n_tiles : tiles;

    const int tx = threadIdx.x % kGroup, ty = threadIdx.x / kGroup;
    const int ch = threadIdx.x % CPR, r = threadIdx.x / CPR;
    float m = -INFINITY, l = 0.f;  // head ty's running max and sum (lanes of row group ty)
    float acc[G][8];
#pragma unroll
    for (int hq = 0; hq < G; ++hq)
#pragma unroll
        for (int e = 0; e < 8; ++e) acc[hq][e] = 0.f;

    // This thread's loads of tile t: key chunks tx + 8i of keys ty + 16k, value chunk ch of keys
    // r + KPP k (zeros past the split's last key). Tile t + 1's are issued as soon as tile t's
    // registers are consumed (keys after the scores, values after P V), so they land while the
    // rest of tile t is computed.
    uint4 kr[KPT][VPL];
    auto load_k = [&](int t) {
        const int jt = j0 + t * kChunk, n = len - jt < kChunk ? len - jt : kChunk;
#pragma unroll
        for (int k = 0; k < KPT; ++k) {
            const int j = ty + (kThreads / kGroup) * k;
            const uint4* row =
                j < n ? reinterpret_cast<const uint4*>(cache_row(p.k, p, b, hk, jt + j)) : nullptr;
#pragma unroll
            for (int i = 0; i < VPL; ++i)
                kr[k][i] = j < n ? row[tx + kGroup * i] : make_uint4(0u, 0u, 0u, 0u);
        }
    };
    auto load_v = [&](uint4(&vr)[VPT], int t) {
        const int jt = j0 + t * kChunk, n = len - jt < kChunk ? len - jt : kChunk;
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int j = r + KPP * k;
            vr[k] = j < n ? reinterpret_cast<const uint4*>(cache_row(p.v, p, b, hk, jt + j))[ch]
                          : make_uint4(0u, 0u, 0u, 0u);
        }
    };
    // The first tile's keys and values are in flight before q is staged: one memory latency a
    // block, not two (a split of one tile waits for nothing else).
    load_k(0);
    uint4 va[VPT];
#if LLAMA_OPS_DECODE_VPRE
    uint4 vb[VPT];
#endif
    load_v(va, 0);
    for (int i = threadIdx.x; i < group * DW; i += kThreads) {
        const int hq = i / DW, w = i % DW;
        const unsigned* qrow = reinterpret_cast<const unsigned*>(slice(p.q, b, hk * group + hq));
        const float2 x = Pair16<T>::unpack(qrow[w]);
        sQ[hq][2 * w] = x.x * p.scale * kLog2e;
        sQ[hq][2 * w + 1] = x.y * p.scale * kLog2e;
    }
    // Tile t: its values in vr; with LLAMA_OPS_DECODE_VPRE the next tile's go to vn with its keys.
    auto tile = [&](int t, uint4(&vr)[VPT], uint4(&vn)[VPT]) {
        const int jt = j0 + t * kChunk;
        const int n = len - jt < kChunk ? len - jt : kChunk;
        __syncthreads();  // sQ (first tile); every thread is past the last tile's P V
        // Scores (log2 units).
#pragma unroll
        for (int hq = 0; hq < G; ++hq) {
            if (hq < group) {  // the same for the whole block: every lane reaches the shuffles
                float qv[8 * VPL];
#pragma unroll
                for (int i = 0; i < VPL; ++i) {
                    const float4 a = *reinterpret_cast<const float4*>(&sQ[hq][8 * (tx + kGroup * i)]);
                    const float4 c = *reinterpret_cast<const float4*>(&sQ[hq][8 * (tx + kGroup * i) + 4]);
                    qv[8 * i] = a.x, qv[8 * i + 1] = a.y, qv[8 * i + 2] = a.z, qv[8 * i + 3] = a.w;
                    qv[8 * i + 4] = c.x, qv[8 * i + 5] = c.y, qv[8 * i + 6] = c.z, qv[8 * i + 7] = c.w;
                }
#pragma unroll
                for (int k = 0; k < KPT; ++k) {
                    float s = 0.f;
#pragma unroll
                    for (int i = 0; i < VPL; ++i) {
                        const unsigned w[4] = {kr[k][i].x, kr[k][i].y, kr[k][i].z, kr[k][i].w};
#pragma unroll
                        for (int e = 0; e < 4; ++e) {
                            const float2 x = Pair16<T>::unpack(w[e]);
                            s = fmaf(x.x, qv[8 * i + 2 * e], s);
                            s = fmaf(x.y, qv[8 * i + 2 * e + 1], s);
                        }
                    }
                    s = group_sum<kGroup>(s);
                    const int j = ty + (kThreads / kGroup) * k;
                    if (tx == 0) sS[hq][j] = j < n ? s : -INFINITY;
                }
            }
        }
        if (t + 1 < n_tiles) {  // kr is free: in flight during softmax and P V
            load_k(t + 1);
            if (LLAMA_OPS_DECODE_VPRE) load_v(vn, t + 1);
        }
        __syncthreads();
        // The online softmax of each head over the tile (8 lanes a head); P in place of S.
        {
            const int hq = ty;
            float mx = -INFINITY;
            if (hq < group)
                for (int j = tx; j < kChunk; j += kGroup) mx = fmaxf(mx, sS[hq][j]);
            mx = group_max<kGroup>(mx);
            const float m_new = fmaxf(m, mx);  // finite: every tile has a key (n >= 1)
            float sum = 0.f;
            if (hq < group)
                for (int j = tx; j < kChunk; j += kGroup) {
                    const float e = exp2f(sS[hq][j] - m_new);
                    sS[hq][j] = e;
                    sum += e;
                }
            sum = group_sum<kGroup>(sum);
            const float alpha = exp2f(m - m_new);  // 0 on the first tile (m = -inf)
            l = l * alpha + sum;
            m = m_new;
            if (hq < group && tx == 0) sA[hq] = alpha;
        }
        __syncthreads();
        // P V for every head of the group, each value row read once.
#pragma unroll
        for (int hq = 0; hq < G; ++hq) {
            if (hq < group) {
                const float a = sA[hq];
#pragma unroll
                for (int e = 0; e < 8; ++e) acc[hq][e] *= a;
            }
        }
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const int j = r + KPP * k;
            const unsigned w[4] = {vr[k].x, vr[k].y, vr[k].z, vr[k].w};
            float vf[8];
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const float2 f = Pair16<T>::unpack(w[e]);
                vf[2 * e] = f.x;
                vf[2 * e + 1] = f.y;
            }
#pragma unroll
            for (int hq = 0; hq < G; ++hq) {
                if (hq < group) {
                    const float pj = sS[hq][j];  // 0 past the tile's end
#pragma unroll
                    for (int e = 0; e < 8; ++e) acc[hq][e] = fmaf(pj, vf[e], acc[hq][e]);
                }
            }
        }
        if (!LLAMA_OPS_DECODE_VPRE && t + 1 < n_tiles) load_v(vr, t + 1);  // vr is free
    };
#if LLAMA_OPS_DECODE_VPRE
    for (int t = 0; t < n_tiles; t += 2) {  // the value buffers alternate: no register copies
        tile(t, va, vb);
        if (t + 1 < n_tiles) tile(t + 1, vb, va);
    }
#else
    for (int t = 0; t < n_tiles; ++t) tile(t, va, va);
#endif

    // The key slots of each head, added in slot order; o, m, l of the split to the workspace.
#pragma unroll
    for (int hq = 0; hq < G; ++hq)
        if (hq < group)
#pragma unroll
            for (int e = 0; e < 8; ++e) sO[(r * G + hq) * D + 8 * ch + e] = acc[hq][e];
    if (tx == 0 && ty < group) {
        sQ[ty][0] = m;  // sQ is free now: m and l of each head
        sQ[ty][1] = l;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < group * D; i += kThreads) {
        const int hq = i / D, d = i % D;
        float o = 0.f;
#pragma unroll
        for (int s = 0; s < KPP; ++s) o += sO[(s * G + hq) * D + d];
        const long long row = ((long long)b * p.heads + hk * group + hq) * gridDim.x + split;
        float* dst = p.work + row * (D + 2);
        dst[d] = o;
        if (d == 0) {
            dst[D] = sQ[hq][0];
            dst[D + 1] = sQ[hq][1];
        }
    }
}

// o = sum_s e^(m_s - M) o_s / sum_s e^(m_s - M) l_s over the splits of one (batch, head), with
// kCombineThreads threads: lane (c4, sl) owns column group c4 (4 columns) and the splits sl, sl +
// SL, ... Latency-bound (the partials are in L2), so every read is issued as early as it can be:
// the first kPre o-rows of each lane before the statistics, m and l of a split in one go. The
// block's max and sum: width-8 shuffles, then the groups' partials through shared memory in group
// order; the splits' weights in shared memory (dynamic: `splits` floats); the lanes' sums added in
// lane order. Every order is fixed: the result does not depend on timing.
template <typename T, int D>  // typename: see flash_attention_wmma.cuh (extern __shared__)
__global__ void __launch_bounds__(kCombineThreads) flash_decode_combine_kernel(FlashDecodeParams p,
                                                                               int splits) {
    constexpr int NT = kCombineThreads;
    constexpr int C4 = D / 4, SL = NT / C4;  // column groups, split lanes (8 or 16)
    constexpr int NG = NT / kGroup;          // groups of kGroup lanes in the reductions
    constexpr int kPre = 8;                  // o-rows a lane reads before the statistics
    extern __shared__ float d_smem[];        // the splits' weights
    __shared__ float sRed[NG];
    __shared__ float4 sAcc[NT];
    const int t = threadIdx.x;
    const int bh = blockIdx.x, b = bh / p.heads, h = bh % p.heads;
    const float* rows = p.work + (long long)bh * splits * (D + 2);
    const int c4 = t % C4, sl = t / C4;
    float4 pre[kPre];
#pragma unroll
    for (int i = 0; i < kPre; ++i) {
        const int s = sl + SL * i;
        if (s < splits) {
            const float* src = rows + s * (D + 2) + 4 * c4;  // (D + 2) * s: 8-byte aligned only
            const float2 a = *reinterpret_cast<const float2*>(src);
            const float2 c = *reinterpret_cast<const float2*>(src + 2);
            pre[i] = make_float4(a.x, a.y, c.x, c.y);
        } else {
            pre[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    float m0 = -INFINITY, l0 = 0.f;  // split t's m and l (most launches have splits <= NT)
    if (t < splits) {
        m0 = rows[t * (D + 2) + D];
        l0 = rows[t * (D + 2) + D + 1];
    }
    float mx = m0;
    for (int s = t + NT; s < splits; s += NT) mx = fmaxf(mx, rows[s * (D + 2) + D]);
    mx = group_max<kGroup>(mx);
    if (t % kGroup == 0) sRed[t / kGroup] = mx;
    __syncthreads();
    mx = sRed[0];
#pragma unroll
    for (int i = 1; i < NG; ++i) mx = fmaxf(mx, sRed[i]);
    __syncthreads();  // sRed is reused
    float l = 0.f;
    if (t < splits) {
        const float w = exp2f(m0 - mx);  // 0 for an empty split
        d_smem[t] = w;
        l = w * l0;
    }
    for (int s = t + NT; s < splits; s += NT) {
        const float w = exp2f(rows[s * (D + 2) + D] - mx);
        d_smem[s] = w;
        l = fmaf(w, rows[s * (D + 2) + D + 1], l);
    }
    l = group_sum<kGroup>(l);
    if (t % kGroup == 0) sRed[t / kGroup] = l;
    __syncthreads();  // sRed and the weights
    l = sRed[0];
#pragma unroll
    for (int i = 1; i < NG; ++i) l += sRed[i];
    float4 o = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int i = 0; i < kPre; ++i) {
        const int s = sl + SL * i;
        const float w = s < splits ? d_smem[s] : 0.f;
        o.x = fmaf(w, pre[i].x, o.x);
        o.y = fmaf(w, pre[i].y, o.y);
        o.z = fmaf(w, pre[i].z, o.z);
        o.w = fmaf(w, pre[i].w, o.w);
    }
#pragma unroll 4
    for (int s = sl + SL * kPre; s < splits; s += SL) {
        const float w = d_smem[s];
        const float* src = rows + s * (D + 2) + 4 * c4;
        const float2 a = *reinterpret_cast<const float2*>(src);
        const float2 c = *reinterpret_cast<const float2*>(src + 2);
        o.x = fmaf(w, a.x, o.x);
        o.y = fmaf(w, a.y, o.y);
        o.z = fmaf(w, c.x, o.z);
        o.w = fmaf(w, c.y, o.w);
    }
    sAcc[t] = o;
    __syncthreads();
    if (sl == 0) {
        for (int s = 1; s < SL; ++s) {
            const float4 x = sAcc[s * C4 + c4];
            o.x += x.x, o.y += x.y, o.z += x.z, o.w += x.w;
        }
        unsigned short* out =
            static_cast<unsigned short*>(p.o.data) + b * p.o.stride_batch + h * p.o.stride_head;
        const float inv = 1.f / l;
        unsigned* dst = reinterpret_cast<unsigned*>(out + 4 * c4);  // the row is 4-byte aligned
        dst[0] = Pair16<T>::pack(o.x * inv, o.y * inv);
        dst[1] = Pair16<T>::pack(o.z * inv, o.w * inv);
        if (c4 == 0 && p.lse) p.lse[bh] = (mx + log2f(l)) / kLog2e;
    }
}

}  // namespace decode
}  // namespace llama_ops
