// kernels/flash_attention.cuh - the FlashAttention kernels (host side: src/flash_attention.cu).
//
// Every kernel runs 128 threads as 16 row groups of 8 lanes (ty = thread / 8, tx = thread % 8).
// A block owns BM rows of one (batch, head) and streams tiles of BN rows of the other operand
// through shared memory. Per thread, rows ty*TM .. ty*TM+TM-1 of the owned tile and the streamed
// rows tx, tx+8, tx+16, ... of a score tile; row statistics are combined across the 8 lanes of a
// group with width-8 shuffles (portable.cuh), so the code does not depend on the warp width.
// Tiles are kept as 32-bit words of two 16-bit elements, rows padded by one word so that the
// lanes of a warp hit different banks.
//
//   forward   S = scale*Q K^T, online softmax (running max m, sum l), O = P V / l, lse = m + log l
//   backward  delta_i = sum_d dO_id O_id;  P = exp(S - lse);  dP = dO V^T;  dS = P (dP - delta)
//             dV = P^T dO, dK = scale dS^T Q (one block per key tile, looping over query tiles)
//             dQ = scale dS K (one block per query tile, looping over key tiles)
// The two backward kernels both recompute P instead of one of them accumulating dQ with atomics:
// more arithmetic, but deterministic results and no float atomics.
#pragma once

#include "llama_ops/flash_attention.h"
#include "llama_ops/portable.cuh"

namespace llama_ops {
namespace flash {

constexpr int kThreads = 128;
constexpr int kGroup = 8;                       // lanes sharing one row
constexpr int kRowGroups = kThreads / kGroup;   // 16
constexpr float kLog2e = 1.4426950408889634f;

// Tile rows (owned BM, streamed BN) per head dimension, chosen so that each kernel's shared
// memory stays under 48 KiB (NVIDIA's static limit; AMD has 64 KiB of LDS).
template <int D> struct FwdShape;
template <> struct FwdShape<64> { static constexpr int BM = 64, BN = 64; };
template <> struct FwdShape<128> { static constexpr int BM = 64, BN = 32; };
template <int D> struct BwdKVShape;  // BM key rows, BN query rows
template <> struct BwdKVShape<64> { static constexpr int BM = 64, BN = 32; };
template <> struct BwdKVShape<128> { static constexpr int BM = 32, BN = 32; };
template <int D> struct BwdQShape;  // BM query rows, BN key rows
template <> struct BwdQShape<64> { static constexpr int BM = 64, BN = 32; };
template <> struct BwdQShape<128> { static constexpr int BM = 32, BN = 32; };

__device__ __forceinline__ const unsigned short* slice(const AttnTensor& t, int b, int h) {
    return static_cast<const unsigned short*>(t.data) + b * t.stride_batch + h * t.stride_head;
}

// Rows row0 .. row0+ROWS-1 of a slice as words into dst (row pitch LD words); rows >= n are 0.
template <int ROWS, int DW, int LD>
__device__ __forceinline__ void load_rows(unsigned* dst, const unsigned short* src,
                                          long long stride, int row0, int n) {
    for (int i = threadIdx.x; i < ROWS * DW; i += kThreads) {
        const int r = i / DW, w = i % DW;
        unsigned word = 0u;
        if (row0 + r < n) word = reinterpret_cast<const unsigned*>(src + (row0 + r) * stride)[w];
        dst[r * LD + w] = word;
    }
}

// acc[i][j] += sum_d A[ty*TM + i][d] * B[tx + 8j][d] for two word tiles A and B.
template <class T, int TM, int TN, int DW, int LDA, int LDB>
__device__ __forceinline__ void dot_rows(float (&acc)[TM][TN], const unsigned* A,
                                         const unsigned* B, int ty, int tx) {
#pragma unroll 2
    for (int w = 0; w < DW; ++w) {
        float2 a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = Pair16<T>::unpack(A[(ty * TM + i) * LDA + w]);
#pragma unroll
        for (int j = 0; j < TN; ++j) b[j] = Pair16<T>::unpack(B[(tx + kGroup * j) * LDB + w]);
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j)
                acc[i][j] = fmaf(a[i].y, b[j].y, fmaf(a[i].x, b[j].x, acc[i][j]));
    }
}

// acc[i][2j], acc[i][2j+1] += sum_c P[ty*TM + i][c] * V[c][word tx + 8j], for a float tile P
// (BN columns, pitch LDP) and a word tile V (pitch LDV): this thread's NP column pairs.
template <class T, int TM, int NP, int BN, int LDP, int LDV>
__device__ __forceinline__ void accum_pv(float (&acc)[TM][2 * NP], const float* P,
                                         const unsigned* V, int ty, int tx) {
#pragma unroll 2
    for (int c = 0; c < BN; ++c) {
        float pr[TM];
#pragma unroll
        for (int i = 0; i < TM; ++i) pr[i] = P[(ty * TM + i) * LDP + c];
#pragma unroll
        for (int j = 0; j < NP; ++j) {
            const float2 v = Pair16<T>::unpack(V[c * LDV + tx + kGroup * j]);
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                acc[i][2 * j] = fmaf(pr[i], v.x, acc[i][2 * j]);
                acc[i][2 * j + 1] = fmaf(pr[i], v.y, acc[i][2 * j + 1]);
            }
        }
    }
}

// Tiles of width `tile` needed by owned rows row0 .. row0+rows-1 (causal: none past the diagonal).
__device__ __forceinline__ int tiles_needed(int n, int tile, int causal, int row0, int rows) {
    const int all = (n + tile - 1) / tile;
    if (!causal) return all;
    const int last = (row0 + rows - 1) / tile + 1;
    return last < all ? last : all;
}

template <class T, int D>
__global__ void __launch_bounds__(kThreads) flash_fwd_kernel(FlashFwdParams p) {
    constexpr int BM = FwdShape<D>::BM, BN = FwdShape<D>::BN;
    constexpr int DW = D / 2, LD = DW + 1, LDP = BN + 1;
    constexpr int TM = BM / kRowGroups, TN = BN / kGroup, NP = DW / kGroup;
    __shared__ unsigned sQ[BM * LD];
    __shared__ unsigned sK[BN * LD];
    __shared__ unsigned sV[BN * DW];
    __shared__ float sP[BM * LDP];

    const int tx = threadIdx.x % kGroup, ty = threadIdx.x / kGroup;
    const int bh = blockIdx.y, b = bh / p.heads, h = bh % p.heads;
    const int q0 = blockIdx.x * BM;
    const unsigned short* q = slice(p.q, b, h);
    const int group = p.heads / (p.kv_heads > 0 ? p.kv_heads : p.heads);  // query heads per kv head
    const unsigned short* k = slice(p.k, b, h / group);
    const unsigned short* v = slice(p.v, b, h / group);

    load_rows<BM, DW, LD>(sQ, q, p.q.stride_row, q0, p.seq_q);
    float o[TM][2 * NP];
    float m[TM], l[TM];  // running max (log2 units) and this thread's part of the running sum
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        m[i] = -INFINITY;
        l[i] = 0.f;
#pragma unroll
        for (int e = 0; e < 2 * NP; ++e) o[i][e] = 0.f;
    }
    const float c = p.scale * kLog2e;
    const int n_tiles = tiles_needed(p.seq_k, BN, p.causal, q0, BM);
    for (int t = 0; t < n_tiles; ++t) {
        const int k0 = t * BN;
        load_rows<BN, DW, LD>(sK, k, p.k.stride_row, k0, p.seq_k);
        load_rows<BN, DW, DW>(sV, v, p.v.stride_row, k0, p.seq_k);
        __syncthreads();

        float s[TM][TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) s[i][j] = 0.f;
        dot_rows<T, TM, TN, DW, LD, LD>(s, sQ, sK, ty, tx);

#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int qi = q0 + ty * TM + i;
            float tile_max = -INFINITY;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int kj = k0 + tx + kGroup * j;
                float x = s[i][j] * c;
                if (kj >= p.seq_k || (p.causal && kj > qi)) x = -INFINITY;
                s[i][j] = x;
                tile_max = fmaxf(tile_max, x);
            }
            tile_max = group_max<kGroup>(tile_max);
            const float m_new = fmaxf(m[i], tile_max);
            const float base = m_new == -INFINITY ? 0.f : m_new;  // a row with nothing seen yet
            const float alpha = exp2f(m[i] - base);
            m[i] = m_new;
            l[i] *= alpha;
#pragma unroll
            for (int e = 0; e < 2 * NP; ++e) o[i][e] *= alpha;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const float pj = exp2f(s[i][j] - base);
                l[i] += pj;
                sP[(ty * TM + i) * LDP + tx + kGroup * j] = pj;
            }
        }
        __syncthreads();
        accum_pv<T, TM, NP, BN, LDP, DW>(o, sP, sV, ty, tx);
        __syncthreads();  // sK, sV and sP are refilled next
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const float sum = group_sum<kGroup>(l[i]);
        const int qi = q0 + ty * TM + i;
        if (qi >= p.seq_q) continue;
        const float inv = 1.f / sum;
        unsigned* orow = reinterpret_cast<unsigned*>(static_cast<unsigned short*>(p.o.data) +
                                                     b * p.o.stride_batch + h * p.o.stride_head +
                                                     qi * p.o.stride_row);
#pragma unroll
        for (int j = 0; j < NP; ++j)
            orow[tx + kGroup * j] = Pair16<T>::pack(o[i][2 * j] * inv, o[i][2 * j + 1] * inv);
        if (tx == 0 && p.lse) p.lse[(long long)bh * p.seq_q + qi] = (m[i] + log2f(sum)) / kLog2e;
    }
}

// delta[b, h, i] = sum_d dout[b, h, i, d] * o[b, h, i, d]: one row per 8-lane group.
template <class T, int D>
__global__ void __launch_bounds__(kThreads) flash_bwd_delta_kernel(FlashBwdParams p) {
    constexpr int DW = D / 2;
    const int tx = threadIdx.x % kGroup;
    const long long row = (long long)blockIdx.x * kRowGroups + threadIdx.x / kGroup;
    const long long rows = (long long)p.batch * p.heads * p.seq_q;
    float acc = 0.f;
    if (row < rows) {
        const int i = (int)(row % p.seq_q);
        const int bh = (int)(row / p.seq_q), b = bh / p.heads, h = bh % p.heads;
        const unsigned* orow = reinterpret_cast<const unsigned*>(slice(p.o, b, h) + i * p.o.stride_row);
        const unsigned* grow =
            reinterpret_cast<const unsigned*>(slice(p.dout, b, h) + i * p.dout.stride_row);
        for (int w = tx; w < DW; w += kGroup) {
            const float2 a = Pair16<T>::unpack(orow[w]);
            const float2 g = Pair16<T>::unpack(grow[w]);
            acc = fmaf(a.x, g.x, fmaf(a.y, g.y, acc));
        }
    }
    acc = group_sum<kGroup>(acc);  // every lane takes part, also past the last row
    if (row < rows && tx == 0) p.delta[row] = acc;
}

// Stores TM rows x NP word pairs of a float accumulator (times `mul`) into rows row0 + ty*TM + i.
template <class T, int TM, int NP>
__device__ __forceinline__ void store_rows(const AttnTensor& t, int b, int h, int row0, int n,
                                           const float (&acc)[TM][2 * NP], float mul, int ty,
                                           int tx) {
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + ty * TM + i;
        if (r >= n) continue;
        unsigned* dst = reinterpret_cast<unsigned*>(static_cast<unsigned short*>(t.data) +
                                                    b * t.stride_batch + h * t.stride_head +
                                                    r * t.stride_row);
#pragma unroll
        for (int j = 0; j < NP; ++j)
            dst[tx + kGroup * j] = Pair16<T>::pack(acc[i][2 * j] * mul, acc[i][2 * j + 1] * mul);
    }
}

template <class T, int D>
__global__ void __launch_bounds__(kThreads) flash_bwd_dkdv_kernel(FlashBwdParams p) {
    constexpr int BM = BwdKVShape<D>::BM, BN = BwdKVShape<D>::BN;
    constexpr int DW = D / 2, LD = DW + 1, LDP = BN + 1;
    constexpr int TM = BM / kRowGroups, TN = BN / kGroup, NP = DW / kGroup;
    __shared__ unsigned sK[BM * LD];
    __shared__ unsigned sV[BM * LD];
    __shared__ unsigned sQ[BN * LD];
    __shared__ unsigned sdO[BN * LD];
    __shared__ float sP[BM * LDP];
    __shared__ float sdS[BM * LDP];
    __shared__ float sL[BN];
    __shared__ float sDelta[BN];

    const int tx = threadIdx.x % kGroup, ty = threadIdx.x / kGroup;
    // One block per key tile of one (batch, kv head); with grouped-query attention it loops over
    // the query heads of the group (dK and dV are sums over them).
    const int kvh = p.kv_heads > 0 ? p.kv_heads : p.heads, group = p.heads / kvh;
    const int b = blockIdx.y / kvh, hk = blockIdx.y % kvh;
    const int k0 = blockIdx.x * BM;
    load_rows<BM, DW, LD>(sK, slice(p.k, b, hk), p.k.stride_row, k0, p.seq_k);
    load_rows<BM, DW, LD>(sV, slice(p.v, b, hk), p.v.stride_row, k0, p.seq_k);

    float dk[TM][2 * NP], dv[TM][2 * NP];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int e = 0; e < 2 * NP; ++e) dk[i][e] = dv[i][e] = 0.f;
    const float c = p.scale * kLog2e;
    const int first = p.causal ? k0 / BN : 0;  // query tiles wholly above the diagonal see no key here
    const int n_tiles = (p.seq_q + BN - 1) / BN;
    for (int h = hk * group; h < (hk + 1) * group; ++h) {
        const int bh = b * p.heads + h;
        const unsigned short* q = slice(p.q, b, h);
        const unsigned short* dout = slice(p.dout, b, h);
        for (int t = first; t < n_tiles; ++t) {
            const int q0 = t * BN;
            load_rows<BN, DW, LD>(sQ, q, p.q.stride_row, q0, p.seq_q);
            load_rows<BN, DW, LD>(sdO, dout, p.dout.stride_row, q0, p.seq_q);
            for (int i = threadIdx.x; i < BN; i += kThreads) {
                const bool in = q0 + i < p.seq_q;
                const long long at = (long long)bh * p.seq_q + q0 + i;
                sL[i] = in ? p.lse[at] * kLog2e : INFINITY;
                sDelta[i] = in ? p.delta[at] : 0.f;
            }
            __syncthreads();

            float st[TM][TN], dpt[TM][TN];  // S^T and dP^T: key rows x query columns
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) st[i][j] = dpt[i][j] = 0.f;
            dot_rows<T, TM, TN, DW, LD, LD>(st, sK, sQ, ty, tx);
            dot_rows<T, TM, TN, DW, LD, LD>(dpt, sV, sdO, ty, tx);
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                const int kj = k0 + ty * TM + i;
#pragma unroll
                for (int j = 0; j < TN; ++j) {
                    const int col = tx + kGroup * j, qi = q0 + col;
                    float pr = exp2f(st[i][j] * c - sL[col]);
                    if (qi >= p.seq_q || kj >= p.seq_k || (p.causal && kj > qi)) pr = 0.f;
                    sP[(ty * TM + i) * LDP + col] = pr;
                    sdS[(ty * TM + i) * LDP + col] = pr * (dpt[i][j] - sDelta[col]);
                }
            }
            __syncthreads();
            accum_pv<T, TM, NP, BN, LDP, LD>(dv, sP, sdO, ty, tx);
            accum_pv<T, TM, NP, BN, LDP, LD>(dk, sdS, sQ, ty, tx);
            __syncthreads();
        }
    }
    store_rows<T, TM, NP>(p.dk, b, hk, k0, p.seq_k, dk, p.scale, ty, tx);
    store_rows<T, TM, NP>(p.dv, b, hk, k0, p.seq_k, dv, 1.f, ty, tx);
}

template <class T, int D>
__global__ void __launch_bounds__(kThreads) flash_bwd_dq_kernel(FlashBwdParams p) {
    constexpr int BM = BwdQShape<D>::BM, BN = BwdQShape<D>::BN;
    constexpr int DW = D / 2, LD = DW + 1, LDP = BN + 1;
    constexpr int TM = BM / kRowGroups, TN = BN / kGroup, NP = DW / kGroup;
    __shared__ unsigned sQ[BM * LD];
    __shared__ unsigned sdO[BM * LD];
    __shared__ unsigned sK[BN * LD];
    __shared__ unsigned sV[BN * LD];
    __shared__ float sdS[BM * LDP];

    const int tx = threadIdx.x % kGroup, ty = threadIdx.x / kGroup;
    const int bh = blockIdx.y, b = bh / p.heads, h = bh % p.heads;
    const int q0 = blockIdx.x * BM;
    load_rows<BM, DW, LD>(sQ, slice(p.q, b, h), p.q.stride_row, q0, p.seq_q);
    load_rows<BM, DW, LD>(sdO, slice(p.dout, b, h), p.dout.stride_row, q0, p.seq_q);
    const int group = p.heads / (p.kv_heads > 0 ? p.kv_heads : p.heads);
    const unsigned short* k = slice(p.k, b, h / group);
    const unsigned short* v = slice(p.v, b, h / group);

    float lse2[TM], delta[TM];
    float dq[TM][2 * NP];
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int qi = q0 + ty * TM + i;
        const long long at = (long long)bh * p.seq_q + qi;
        lse2[i] = qi < p.seq_q ? p.lse[at] * kLog2e : INFINITY;
        delta[i] = qi < p.seq_q ? p.delta[at] : 0.f;
#pragma unroll
        for (int e = 0; e < 2 * NP; ++e) dq[i][e] = 0.f;
    }
    const float c = p.scale * kLog2e;
    const int n_tiles = tiles_needed(p.seq_k, BN, p.causal, q0, BM);
    for (int t = 0; t < n_tiles; ++t) {
        const int k0 = t * BN;
        load_rows<BN, DW, LD>(sK, k, p.k.stride_row, k0, p.seq_k);
        load_rows<BN, DW, LD>(sV, v, p.v.stride_row, k0, p.seq_k);
        __syncthreads();

        float s[TM][TN], dp[TM][TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) s[i][j] = dp[i][j] = 0.f;
        dot_rows<T, TM, TN, DW, LD, LD>(s, sQ, sK, ty, tx);
        dot_rows<T, TM, TN, DW, LD, LD>(dp, sdO, sV, ty, tx);
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int qi = q0 + ty * TM + i;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int col = tx + kGroup * j, kj = k0 + col;
                float pr = exp2f(s[i][j] * c - lse2[i]);
                if (qi >= p.seq_q || kj >= p.seq_k || (p.causal && kj > qi)) pr = 0.f;
                sdS[(ty * TM + i) * LDP + col] = pr * (dp[i][j] - delta[i]);
            }
        }
        __syncthreads();
        accum_pv<T, TM, NP, BN, LDP, LD>(dq, sdS, sK, ty, tx);
        __syncthreads();
    }
    store_rows<T, TM, NP>(p.dq, b, h, q0, p.seq_q, dq, p.scale, ty, tx);
}

}  // namespace flash
}  // namespace llama_ops
