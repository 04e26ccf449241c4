// kernels/flash_backward_wmma.cuh - the FlashAttention backward pass on tensor cores (WMMA
// 16x16x16 fragments, f32 accumulation); host side in src/flash_attention.cu, built with the
// forward kernel when LLAMA_OPS_WMMA=1. `ferry migrate --to hip` carries it to rocWMMA.
//
// FlashAttention-2's formulas, recomputing P from the forward pass's log-sum-exp:
//   delta_i = sum_d dO_id O_id                  (the scalar delta kernel of flash_attention.cuh)
//   P = exp(scale S - lse),  dP = dO V^T,  dS = P (dP - delta)
//   dV = P^T dO,  dK = scale dS^T Q             (one block per tile of keys: this file, dkdv)
//   dQ = scale dS K                             (one block per tile of queries: this file, dq)
// As in the scalar backward, dQ is not accumulated with atomics from the key-tile kernel: both
// kernels recompute P, and the gradients are the same bits every run.
//
// A block of kBwdWarps warps owns BM = 16 * kBwdWarps rows (keys, or queries); each warp owns 16.
// The owned rows stay in shared memory for the whole loop; tiles of BN rows of the other side
// stream through it. Per warp and tile, for each 16-column block j of the tile: the S and dP
// blocks (two 16x16 f32 accumulators) are stored to the warp's scratch, the lanes turn them into
// P and dS (element-wise: P needs only the row's lse, dS the row's delta — no reduction), written
// as 16-bit rows; then P and dS come back as matrix_a fragments for the products with the
// streamed tile. The accumulators (dK and dV, or dQ) stay in fragments for the whole loop. No
// fragment element is ever touched (see flash_attention_wmma.cuh), and the lanes of a warp split
// the element-wise work by `warpSize`, so the source is correct on 32- and 64-lane warps.
//
// Grouped-query attention: kv_heads divides heads; the dK/dV block of a kv head loops over the
// query heads of its group (dK and dV are sums over them), the dQ block reads its kv head.
#pragma once

#include "llama_ops/kernels/flash_attention_wmma.cuh"

namespace llama_ops {
namespace flash_wmma {

// Warps per block (owned rows = 16 per warp) and streamed rows per tile. NVIDIA: 64 owned rows,
// 64 streamed (98 KiB of shared memory for d = 128); AMD (64 KiB of LDS): 32 and 32 (45 KiB).
#if defined(LLAMA_OPS_WMMA_BWD_WARPS)
constexpr int kBwdWarps = LLAMA_OPS_WMMA_BWD_WARPS;
#elif defined(__HIP_PLATFORM_AMD__)
constexpr int kBwdWarps = 2;
#else
constexpr int kBwdWarps = 4;
#endif
// LLAMA_OPS_WMMA_BWD_ASYNC=1: the streamed tiles (Q, dO, lse, delta in the dK/dV kernel; K, V in
// the dQ kernel) are double-buffered and tile t+1 is copied (cp.async where the build has it)
// while tile t is computed, one block barrier a tile instead of two; 32 streamed rows on NVIDIA
// then, so that the two buffers take the shared memory one 64-row tile did (two blocks per SM).
// ncu put the backward's stalls on its synchronous tile loads; on the H200 (2026-12-05) the
// double-buffered form took 3.10 ms against 5.21 ms at 1x16x4096x128 fp16, so it is the default
// on NVIDIA. AMD builds keep single buffers: two 32-row buffers at d = 128 and two warps fill
// 63.5 of gfx90a's 64 KiB of LDS, and that form has not been timed on AMD hardware.
#ifndef LLAMA_OPS_WMMA_BWD_ASYNC
#if defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_WMMA_BWD_ASYNC 0
#else
#define LLAMA_OPS_WMMA_BWD_ASYNC 1
#endif
#endif
#if defined(LLAMA_OPS_WMMA_BWD_BN)
constexpr int kBwdBN = LLAMA_OPS_WMMA_BWD_BN;
#elif defined(__HIP_PLATFORM_AMD__) || LLAMA_OPS_WMMA_BWD_ASYNC
constexpr int kBwdBN = 32;
#else
constexpr int kBwdBN = 64;
#endif

template <int D>
struct BwdShape {
    static constexpr int kWarps = kBwdWarps;
    static constexpr int BM = kFrag * kWarps, BN = kBwdBN;
    static constexpr int LDT = D + 8;      // 16-bit tile pitch (elements): rows 16-byte aligned
    static constexpr int LDX = kFrag + 8;  // f32 scratch pitch (24: conflict-free fragment stores)
    static constexpr int LDP = BN + 8;     // 16-bit P / dS pitch
    static constexpr size_t own_bytes = 2 * (size_t)BM * LDT * 2;     // K, V (or Q, dO)
    static constexpr int kBufs = LLAMA_OPS_WMMA_BWD_ASYNC ? 2 : 1;  // streamed tile buffers
    static constexpr size_t stream_bytes = kBufs * 2 * (size_t)BN * LDT * 2;  // Q, dO (or K, V)
    static constexpr size_t x_bytes = (size_t)kWarps * 2 * kFrag * LDX * 4;  // S, dP blocks
    static constexpr size_t p_bytes = (size_t)kWarps * 2 * kFrag * LDP * 2;  // P, dS rows
    static constexpr size_t smem_bytes = own_bytes + stream_bytes + x_bytes + p_bytes;
};

// One 16x16 block of P and dS from the S and dP blocks in the warp's scratch (f32, pitch LDX).
// Row rr of the block is owned row row0 + rr, column cc is streamed row col0 + cc; `rows_are_keys`
// says which side the keys are on (dK/dV kernel) or the queries (dQ kernel). The row's or
// column's (query's) lse in log2 units and delta are at lse2[rr*lr + cc*lc], delta[...]. P and dS
// (masked: out of range or above the causal diagonal) go to columns pcol.. of the warp's 16-bit
// rows pw (null: not needed) and dsw. Four columns a lane at a time, lanes by warpSize.
template <class T, int LDX, int LDP>
__device__ __forceinline__ void p_ds_block(const float* xs, const float* xdp, unsigned short* pw,
                                           unsigned short* dsw, int pcol, int row0, int nrow,
                                           int col0, int ncol, bool rows_are_keys, int causal,
                                           const float* lse2, const float* delta, int lr, int lc,
                                           float c, int lane) {
    for (int i = lane; i < kFrag * kFrag / 4; i += warpSize) {
        const int rr = i / (kFrag / 4), c4 = (i % (kFrag / 4)) * 4;
        const float4 s = *reinterpret_cast<const float4*>(xs + rr * LDX + c4);
        const float4 dp = *reinterpret_cast<const float4*>(xdp + rr * LDX + c4);
        const float sv[4] = {s.x, s.y, s.z, s.w}, dv[4] = {dp.x, dp.y, dp.z, dp.w};
        unsigned short pb[4], db[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int cc = c4 + e, row = row0 + rr, col = col0 + cc;
            const int key = rows_are_keys ? row : col, query = rows_are_keys ? col : row;
            const int at = rr * lr + cc * lc;
            float pr = exp2f(fmaf(sv[e], c, -lse2[at]));
            if (row >= nrow || col >= ncol || (causal && key > query)) pr = 0.f;
            pb[e] = Frags<T>::bits(pr);
            db[e] = Frags<T>::bits(pr * (dv[e] - delta[at]));
        }
        uint2 w;
        if (pw) {
            w.x = (unsigned)pb[0] | ((unsigned)pb[1] << 16);
            w.y = (unsigned)pb[2] | ((unsigned)pb[3] << 16);
            *reinterpret_cast<uint2*>(pw + rr * LDP + pcol + c4) = w;
        }
        w.x = (unsigned)db[0] | ((unsigned)db[1] << 16);
        w.y = (unsigned)db[2] | ((unsigned)db[3] << 16);
        *reinterpret_cast<uint2*>(dsw + rr * LDP + pcol + c4) = w;
    }
}

// acc (D / 16 accumulator fragments: 16 rows x D) times `mul` into rows row0.. of a head slice of
// t (rows >= n skipped), 16-bit, one fragment at a time through the warp's scratch xs.
template <class T, int D, int LDX>
__device__ __forceinline__ void store_rows_wmma(const FragC (&acc)[D / kFrag], float* xs,
                                                const AttnTensor& t, int b, int h, int row0, int n,
                                                float mul, int lane) {
    unsigned short* dst =
        static_cast<unsigned short*>(t.data) + b * t.stride_batch + h * t.stride_head;
#pragma unroll
    for (int f = 0; f < D / kFrag; ++f) {
        nvcuda::wmma::store_matrix_sync(xs, acc[f], LDX, nvcuda::wmma::mem_row_major);
        __syncwarp();
        for (int i = lane; i < kFrag * 2; i += warpSize) {
            const int rr = i / 2, c8 = (i % 2) * 8;
            if (row0 + rr < n) {
                *reinterpret_cast<uint4*>(dst + (row0 + rr) * t.stride_row + f * kFrag + c8) =
                    pack8<T>(xs + rr * LDX + c8, mul);
            }
        }
        __syncwarp();
    }
}

// One block per BM keys of one (batch, kv head): dK and dV, looping over the query heads of the
// group and their query tiles.
template <typename T, int D>
__global__ void __launch_bounds__(kBwdWarps* LLAMA_OPS_MAX_WARP, 1)
    flash_bwd_dkdv_wmma_kernel(FlashBwdParams p) {
    using Sh = BwdShape<D>;
    using FragA = typename Frags<T>::A;
    using FragBt = typename Frags<T>::Bt;
    using FragB = typename Frags<T>::B;
    using E = typename ElemOf<FragA>::type;
    constexpr int BM = Sh::BM, BN = Sh::BN, LDT = Sh::LDT, LDX = Sh::LDX, LDP = Sh::LDP;
    constexpr int DF = D / kFrag, NQ = BN / kFrag;

    extern __shared__ float fb_smem[];
    unsigned short* sK = reinterpret_cast<unsigned short*>(fb_smem);
    unsigned short* sV = sK + BM * LDT;
    constexpr int NB = Sh::kBufs;
    unsigned short* sQ0 = sV + BM * LDT;     // NB buffers of BN rows each
    unsigned short* sdO0 = sQ0 + NB * BN * LDT;
    float* sX = reinterpret_cast<float*>(sdO0 + NB * BN * LDT);
    unsigned short* sPD = reinterpret_cast<unsigned short*>(sX + Sh::kWarps * 2 * kFrag * LDX);
    __shared__ float sL0[NB * BN], sDelta0[NB * BN];  // the query tile's lse (log2 units), delta

    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    const int kvh = p.kv_heads > 0 ? p.kv_heads : p.heads, group = p.heads / kvh;
    const int bh = blockIdx.y, b = bh / kvh, hk = bh % kvh;
    const int k0 = blockIdx.x * BM, kw0 = k0 + warp * kFrag;
    float* xS = sX + warp * 2 * kFrag * LDX;
    float* xD = xS + kFrag * LDX;
    unsigned short* pw = sPD + warp * 2 * kFrag * LDP;
    unsigned short* dsw = pw + kFrag * LDP;
    const E* kw = reinterpret_cast<const E*>(sK) + warp * kFrag * LDT;
    const E* vw = reinterpret_cast<const E*>(sV) + warp * kFrag * LDT;

    load_tile<BM, D, LDT>(sK, slice(p.k, b, hk), p.k.stride_row, k0, p.seq_k);
    load_tile<BM, D, LDT>(sV, slice(p.v, b, hk), p.v.stride_row, k0, p.seq_k);
    FragC dk[DF], dv[DF];
#pragma unroll
    for (int n = 0; n < DF; ++n) {
        nvcuda::wmma::fill_fragment(dk[n], 0.f);
        nvcuda::wmma::fill_fragment(dv[n], 0.f);
    }
    const float c = p.scale * kLog2e;
    // Query tiles wholly above the diagonal see none of these keys (causal).
    const int first = p.causal ? k0 / BN : 0;
    const int n_tiles = (p.seq_q + BN - 1) / BN;
    // Iteration it: query head hk * group + it / per_head, tile first + it % per_head.
    const int per_head = n_tiles > first ? n_tiles - first : 0, total = group * per_head;
    // The query tile of iteration it into buffer buf: Q and dO rows (asynchronous with
    // LLAMA_OPS_WMMA_BWD_ASYNC), lse and delta (plain stores).
    auto fetch = [&](int it, int buf) {
        const int h = hk * group + it / per_head, q0 = (first + it % per_head) * BN;
        const long long row_base = ((long long)b * p.heads + h) * p.seq_q;
        if (NB == 2) {
            load_tile_async<BN, D, LDT>(sQ0 + buf * BN * LDT, slice(p.q, b, h), p.q.stride_row, q0,
                                        p.seq_q);
            load_tile_async<BN, D, LDT>(sdO0 + buf * BN * LDT, slice(p.dout, b, h),
                                        p.dout.stride_row, q0, p.seq_q);
        } else {
            load_tile<BN, D, LDT>(sQ0, slice(p.q, b, h), p.q.stride_row, q0, p.seq_q);
            load_tile<BN, D, LDT>(sdO0, slice(p.dout, b, h), p.dout.stride_row, q0, p.seq_q);
        }
        for (int i = threadIdx.x; i < BN; i += blockDim.x) {
            const bool in = q0 + i < p.seq_q;
            sL0[buf * BN + i] = in ? p.lse[row_base + q0 + i] * kLog2e : INFINITY;
            sDelta0[buf * BN + i] = in ? p.delta[row_base + q0 + i] : 0.f;
        }
    };
    if (NB == 2 && total > 0) {
        fetch(0, 0);
        copy_commit();
    }
    for (int it = 0; it < total; ++it) {
        {
            const int buf = NB == 2 ? it & 1 : 0;
            const int q0 = (first + it % per_head) * BN;
            if (NB == 2) {
                copy_wait<0>();   // this tile's copies (the only group in flight)
                __syncthreads();  // ... for every thread; all past the last tile (the other buffer)
                if (it + 1 < total) fetch(it + 1, buf ^ 1);
                copy_commit();
            } else {
                fetch(it, 0);
                __syncthreads();
            }
            const unsigned short* sQ = sQ0 + buf * BN * LDT;
            const unsigned short* sdO = sdO0 + buf * BN * LDT;
            const float* sL = sL0 + buf * BN;
            const float* sDelta = sDelta0 + buf * BN;
            // A warp sees this tile unless its keys are past the end, or all of them lie past the
            // tile's last query (causal).
            const bool active = kw0 < p.seq_k && !(p.causal && kw0 > q0 + BN - 1);
            if (active) {
#pragma unroll
                for (int j = 0; j < NQ; ++j) {
                    // S^T and dP^T blocks: 16 keys x 16 queries.
                    FragC st, dpt;
                    nvcuda::wmma::fill_fragment(st, 0.f);
                    nvcuda::wmma::fill_fragment(dpt, 0.f);
#pragma unroll
                    for (int kk = 0; kk < DF; ++kk) {
                        FragA a;
                        FragBt bt;
                        load_frag(a, kw + kk * kFrag, LDT);
                        load_frag(
                            bt, reinterpret_cast<const E*>(sQ) + j * kFrag * LDT + kk * kFrag, LDT);
                        nvcuda::wmma::mma_sync(st, a, bt, st);
                        load_frag(a, vw + kk * kFrag, LDT);
                        load_frag(
                            bt, reinterpret_cast<const E*>(sdO) + j * kFrag * LDT + kk * kFrag, LDT);
                        nvcuda::wmma::mma_sync(dpt, a, bt, dpt);
                    }
                    nvcuda::wmma::store_matrix_sync(xS, st, LDX, nvcuda::wmma::mem_row_major);
                    nvcuda::wmma::store_matrix_sync(xD, dpt, LDX, nvcuda::wmma::mem_row_major);
                    __syncwarp();  // the blocks, written through fragments, are read by lane
                    p_ds_block<T, LDX, LDP>(xS, xD, pw, dsw, j * kFrag, kw0, p.seq_k,
                                            q0 + j * kFrag, p.seq_q, true, p.causal,
                                            sL + j * kFrag, sDelta + j * kFrag, 0, 1, c, lane);
                    __syncwarp();  // the scratch is overwritten by the next block
                }
                // dV += P^T dO, dK += dS^T Q (scaled at the end).
                FragA pf[NQ], sf[NQ];
#pragma unroll
                for (int kk = 0; kk < NQ; ++kk) {
                    load_frag(pf[kk], reinterpret_cast<const E*>(pw) + kk * kFrag,
                                                   LDP);
                    load_frag(sf[kk], reinterpret_cast<const E*>(dsw) + kk * kFrag,
                                                   LDP);
                }
#pragma unroll
                for (int n = 0; n < DF; ++n) {
#pragma unroll
                    for (int kk = 0; kk < NQ; ++kk) {
                        FragB bm;
                        load_frag(
                            bm, reinterpret_cast<const E*>(sdO) + kk * kFrag * LDT + n * kFrag, LDT);
                        nvcuda::wmma::mma_sync(dv[n], pf[kk], bm, dv[n]);
                        load_frag(
                            bm, reinterpret_cast<const E*>(sQ) + kk * kFrag * LDT + n * kFrag, LDT);
                        nvcuda::wmma::mma_sync(dk[n], sf[kk], bm, dk[n]);
                    }
                }
            }
            if (NB == 1) __syncthreads();  // sQ, sdO, sL and sDelta are refilled next
        }
    }
    store_rows_wmma<T, D, LDX>(dk, xS, p.dk, b, hk, kw0, p.seq_k, p.scale, lane);
    store_rows_wmma<T, D, LDX>(dv, xS, p.dv, b, hk, kw0, p.seq_k, 1.f, lane);
}

// One block per BM queries of one (batch, head): dQ, looping over the key tiles.
template <typename T, int D>
__global__ void __launch_bounds__(kBwdWarps* LLAMA_OPS_MAX_WARP, 1)
    flash_bwd_dq_wmma_kernel(FlashBwdParams p) {
    using Sh = BwdShape<D>;
    using FragA = typename Frags<T>::A;
    using FragBt = typename Frags<T>::Bt;
    using FragB = typename Frags<T>::B;
    using E = typename ElemOf<FragA>::type;
    constexpr int BM = Sh::BM, BN = Sh::BN, LDT = Sh::LDT, LDX = Sh::LDX, LDP = Sh::LDP;
    constexpr int DF = D / kFrag, NK = BN / kFrag;

    extern __shared__ float fb_smem[];
    unsigned short* sQ = reinterpret_cast<unsigned short*>(fb_smem);
    unsigned short* sdO = sQ + BM * LDT;
    constexpr int NB = Sh::kBufs;
    unsigned short* sK0 = sdO + BM * LDT;  // NB buffers of BN rows each
    unsigned short* sV0 = sK0 + NB * BN * LDT;
    float* sX = reinterpret_cast<float*>(sV0 + NB * BN * LDT);
    unsigned short* sPD = reinterpret_cast<unsigned short*>(sX + Sh::kWarps * 2 * kFrag * LDX);
    __shared__ float sL[BM], sDelta[BM];  // the owned rows' lse (log2 units) and delta

    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    const int kvh = p.kv_heads > 0 ? p.kv_heads : p.heads, group = p.heads / kvh;
    const int bh = blockIdx.y, b = bh / p.heads, h = bh % p.heads;
    // Query tiles in reverse launch order, the longest (causal) first: see the forward kernel.
    // (The dK/dV kernel's first key tiles are already its longest.)
    const int q0 = (gridDim.x - 1 - blockIdx.x) * BM, qw0 = q0 + warp * kFrag;
    float* xS = sX + warp * 2 * kFrag * LDX;
    float* xD = xS + kFrag * LDX;
    unsigned short* dsw = sPD + warp * 2 * kFrag * LDP;
    const E* qw = reinterpret_cast<const E*>(sQ) + warp * kFrag * LDT;
    const E* ow = reinterpret_cast<const E*>(sdO) + warp * kFrag * LDT;
    const unsigned short* k = slice(p.k, b, h / group);
    const unsigned short* v = slice(p.v, b, h / group);

    load_tile<BM, D, LDT>(sQ, slice(p.q, b, h), p.q.stride_row, q0, p.seq_q);
    load_tile<BM, D, LDT>(sdO, slice(p.dout, b, h), p.dout.stride_row, q0, p.seq_q);
    for (int i = threadIdx.x; i < BM; i += blockDim.x) {
        const bool in = q0 + i < p.seq_q;
        const long long at = (long long)bh * p.seq_q + q0 + i;
        sL[i] = in ? p.lse[at] * kLog2e : INFINITY;
        sDelta[i] = in ? p.delta[at] : 0.f;
    }
    FragC dq[DF];
#pragma unroll
    for (int n = 0; n < DF; ++n) nvcuda::wmma::fill_fragment(dq[n], 0.f);
    const float c = p.scale * kLog2e;
    int n_tiles = (p.seq_k + BN - 1) / BN;
    if (p.causal) {
        const int last = (q0 + BM - 1) / BN + 1;
        n_tiles = last < n_tiles ? last : n_tiles;
    }
    if (NB == 2) {
        load_tile_async<BN, D, LDT>(sK0, k, p.k.stride_row, 0, p.seq_k);
        load_tile_async<BN, D, LDT>(sV0, v, p.v.stride_row, 0, p.seq_k);
        copy_commit();
    }
    for (int t = 0; t < n_tiles; ++t) {
        const int k0 = t * BN;
        const int buf = NB == 2 ? t & 1 : 0;
        if (NB == 2) {
            copy_wait<0>();   // K(t), V(t): the only group in flight
            __syncthreads();  // ... for every thread; all past tile t-1 (the other buffer)
            if (t + 1 < n_tiles) {
                load_tile_async<BN, D, LDT>(sK0 + (buf ^ 1) * BN * LDT, k, p.k.stride_row, k0 + BN,
                                            p.seq_k);
                load_tile_async<BN, D, LDT>(sV0 + (buf ^ 1) * BN * LDT, v, p.v.stride_row, k0 + BN,
                                            p.seq_k);
            }
            copy_commit();
        } else {
            load_tile<BN, D, LDT>(sK0, k, p.k.stride_row, k0, p.seq_k);
            load_tile<BN, D, LDT>(sV0, v, p.v.stride_row, k0, p.seq_k);
            __syncthreads();
        }
        const unsigned short* sK = sK0 + buf * BN * LDT;
        const unsigned short* sV = sV0 + buf * BN * LDT;
        const bool active = qw0 < p.seq_q && !(p.causal && k0 > qw0 + kFrag - 1);
        if (active) {
            // S and dP blocks (16 queries x 16 keys each) of the whole tile at once, so that
            // each Q and dO fragment is loaded once per tile (the accumulators fit here: dQ is
            // the only other state).
            FragC s[NK], dp[NK];
#pragma unroll
            for (int j = 0; j < NK; ++j) {
                nvcuda::wmma::fill_fragment(s[j], 0.f);
                nvcuda::wmma::fill_fragment(dp[j], 0.f);
            }
#pragma unroll
            for (int kk = 0; kk < DF; ++kk) {
                FragA qa, oa;
                load_frag(qa, qw + kk * kFrag, LDT);
                load_frag(oa, ow + kk * kFrag, LDT);
#pragma unroll
                for (int j = 0; j < NK; ++j) {
                    FragBt bt;
                    load_frag(bt, reinterpret_cast<const E*>(sK) + j * kFrag * LDT + kk * kFrag,
                              LDT);
                    nvcuda::wmma::mma_sync(s[j], qa, bt, s[j]);
                    load_frag(bt, reinterpret_cast<const E*>(sV) + j * kFrag * LDT + kk * kFrag,
                              LDT);
                    nvcuda::wmma::mma_sync(dp[j], oa, bt, dp[j]);
                }
            }
#pragma unroll
            for (int j = 0; j < NK; ++j) {
                nvcuda::wmma::store_matrix_sync(xS, s[j], LDX, nvcuda::wmma::mem_row_major);
                nvcuda::wmma::store_matrix_sync(xD, dp[j], LDX, nvcuda::wmma::mem_row_major);
                __syncwarp();
                p_ds_block<T, LDX, LDP>(xS, xD, nullptr, dsw, j * kFrag, qw0, p.seq_q,
                                        k0 + j * kFrag, p.seq_k, false, p.causal,
                                        sL + warp * kFrag, sDelta + warp * kFrag, 1, 0, c, lane);
                __syncwarp();
            }
            // dQ += dS K (scaled at the end).
            FragA sf[NK];
#pragma unroll
            for (int kk = 0; kk < NK; ++kk)
                load_frag(sf[kk], reinterpret_cast<const E*>(dsw) + kk * kFrag,
                                               LDP);
#pragma unroll
            for (int n = 0; n < DF; ++n) {
#pragma unroll
                for (int kk = 0; kk < NK; ++kk) {
                    FragB bm;
                    load_frag(
                        bm, reinterpret_cast<const E*>(sK) + kk * kFrag * LDT + n * kFrag, LDT);
                    nvcuda::wmma::mma_sync(dq[n], sf[kk], bm, dq[n]);
                }
            }
        }
        if (NB == 1) __syncthreads();  // sK and sV are refilled next
    }
    store_rows_wmma<T, D, LDX>(dq, xS, p.dq, b, h, qw0, p.seq_q, p.scale, lane);
}

}  // namespace flash_wmma
}  // namespace llama_ops
