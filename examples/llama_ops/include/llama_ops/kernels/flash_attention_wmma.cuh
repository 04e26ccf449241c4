// kernels/flash_attention_wmma.cuh - the FlashAttention forward pass on tensor cores (WMMA
// 16x16x16 fragments, f32 accumulation); host side in src/flash_attention.cu, selected at build
// time by LLAMA_OPS_WMMA (flash_attention.h). `ferry migrate --to hip` carries it to rocWMMA.
//
// A block of kWarps warps owns BM = 16 * kWarps query rows of one (batch, head); each warp owns
// 16 of them. Tiles of BN keys and values stream through shared memory. Per warp:
//   S = Q K^T     Q as matrix_a fragments kept in registers, K as col_major matrix_b from
//                 shared memory; S (f32) is stored to the warp's part of shared memory
//   softmax       lanes read S back (G = warpSize / 16 lanes per row), mask, take the row max,
//                 write P = exp2(S*c - m) as 16-bit to shared memory, keep the row sum
//   O += P V      P loaded back as matrix_a fragments, V as row_major matrix_b, O in f32
//                 accumulator fragments for the whole key loop
// No fragment element is ever read or written by index: fragments only meet memory through
// load_matrix_sync / store_matrix_sync, whose element-to-lane layout is the implementation's
// (NVIDIA's and rocWMMA's differ). Everything a lane does by itself goes through shared memory
// with the warp width read from `warpSize`, so the same source runs on 32-lane warps and on
// 64-lane wavefronts; the host launches kWarps * warpSize threads.
//
// The running max is rescaled lazily: a row keeps the max `m` its exponentials are taken against
// until a tile's max exceeds it by more than kRescale (log2 units, so P <= 2^kRescale, exact
// enough in fp16/bf16 and far from their range). Only then are the warp's O fragments rescaled,
// through shared memory (rare after the first tiles: random or trained scores settle).
// Block barriers only around the K/V tiles; the S, P and O round trips are warp-private and
// ordered with __syncwarp (a fenced wave barrier after `ferry migrate --to hip`).
//
// K/V tiles are copied asynchronously where the build allows it (LLAMA_OPS_CP_ASYNC: cp.async
// through <cuda_pipeline.h>, nvcc builds; plain 16-byte loads elsewhere — HIP, the CPU runtime):
// V(t) is issued right after the barrier that publishes K(t), and lands while the warps compute
// S and the softmax; K(t+1) is issued after the barrier that publishes V(t) (into the one K
// buffer, whose readers are then done), or with LLAMA_OPS_WMMA_KBUF=2 into a second K buffer
// right after the first barrier, and lands during P V. Two block barriers per tile either way;
// one with LLAMA_OPS_WMMA_VBUF=2 (K and V double-buffered, tile t+1 issued after tile t's barrier).
#pragma once

#include <cuda_runtime.h>

// bf16 fragments (LLAMA_OPS_WMMA_BF16, default 1) need cuda_bf16.h (hip_bf16.h / rocWMMA's
// bfloat16_t after migration); with 0, bf16 runs the scalar kernel (a runtime or compiler whose
// WMMA has no bf16, such as the wave64 CPU runtime's model).
#ifndef LLAMA_OPS_WMMA_BF16
#define LLAMA_OPS_WMMA_BF16 1
#endif
#if LLAMA_OPS_WMMA_BF16
#include <cuda_bf16.h>
#endif
#include <cuda_fp16.h>
#include <mma.h>

#include "llama_ops/flash_attention.h"
#include "llama_ops/portable.cuh"

// Asynchronous global -> shared copies (cp.async, sm_80+; emulated synchronously by nvcc on older
// targets): nvcc builds only. HIP and the wave64 CPU runtime copy with plain loads.
#ifndef LLAMA_OPS_CP_ASYNC
#if defined(__NVCC__) && !defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_CP_ASYNC 1
#else
#define LLAMA_OPS_CP_ASYNC 0
#endif
#endif
#if LLAMA_OPS_CP_ASYNC
#include <cuda_pipeline.h>
#endif
// 1: a warp whose rows all see the whole key tile runs the softmax without per-column masks.
#ifndef LLAMA_OPS_WMMA_FASTMASK
#define LLAMA_OPS_WMMA_FASTMASK 1
#endif
// K tile buffers of the forward kernel: 1 (K(t+1) issued once every warp is past S(t)), or 2
// (issued one phase earlier; 17 KiB more shared memory for d = 128).
#ifndef LLAMA_OPS_WMMA_KBUF
#define LLAMA_OPS_WMMA_KBUF 1
#endif
// V tile buffers: 2 (with KBUF 2) double-buffers the whole tile, K(t+1) and V(t+1) issued right
// after the one barrier of tile t (one block barrier a tile; 34 KiB more for d = 128: meant for
// 16-warp blocks, one per SM).
#ifndef LLAMA_OPS_WMMA_VBUF
#define LLAMA_OPS_WMMA_VBUF 1
#endif

// The widest warp of the platform: bounds the block size at compile time (__launch_bounds__).
#if defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_MAX_WARP 64
#else
#define LLAMA_OPS_MAX_WARP 32
#endif
// Blocks per multiprocessor the compiler must fit in registers (2: at most 128 registers a thread
// on NVIDIA, a few bytes spilled for d = 128; 1: no cap).
#ifndef LLAMA_OPS_WMMA_MIN_BLOCKS
#define LLAMA_OPS_WMMA_MIN_BLOCKS 2
#endif

namespace llama_ops {
namespace flash_wmma {

constexpr int kFrag = 16;  // WMMA 16x16x16
constexpr float kLog2e = 1.4426950408889634f;
constexpr float kRescale = 8.f;

// The WMMA fragments of a 16-bit kind, with the element type written out in each (so that
// `ferry migrate --to hip` gives rocWMMA's bfloat16_t to the bf16 ones), and the conversion of a
// float to the kind's raw bits (tiles are kept as 16-bit words in shared memory).
template <class T>
struct Frags;
template <>
struct Frags<__half> {
    using A =
        nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major>;
    using Bt =
        nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major>;
    using B =
        nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major>;
    static __device__ __forceinline__ unsigned short bits(float f) {
        return __half_as_ushort(__float2half_rn(f));
    }
};
#if LLAMA_OPS_WMMA_BF16
template <>
struct Frags<bf16> {
    using A = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
                                     nvcuda::wmma::row_major>;
    using Bt = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
                                      nvcuda::wmma::col_major>;
    using B = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
                                     nvcuda::wmma::row_major>;
    static __device__ __forceinline__ unsigned short bits(float f) {
        return __bfloat16_as_ushort(__float2bfloat16_rn(f));
    }
};
#endif
using FragC = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>;

// Eight floats from `x`, each times `mul`, as the kind's 16-bit words in one 16-byte store.
template <class T>
__device__ __forceinline__ uint4 pack8(const float* x, float mul) {
    unsigned short e[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) e[i] = Frags<T>::bits(x[i] * mul);
    uint4 word;
    word.x = e[0] | ((unsigned)e[1] << 16);
    word.y = e[2] | ((unsigned)e[3] << 16);
    word.z = e[4] | ((unsigned)e[5] << 16);
    word.w = e[6] | ((unsigned)e[7] << 16);
    return word;
}

// A fragment from shared memory. nvcc gives the 16-bit half loads the shared state space
// (`wmma.load.*.shared.f16`: ldmatrix), but leaves every bf16 load generic (`wmma.load.*.bf16`,
// even from a __shared__ array), which made bf16 ~1.5x slower than fp16 on the H200 with the
// same shapes. On nvcc device builds (LLAMA_OPS_WMMA_BF16_SHARED, default 1 there) the three bf16
// fragment kinds are loaded with the same WMMA instruction and the .shared space written out;
// the fragment's registers are what load_matrix_sync would fill (its own header passes them as
// `(int*)&frag` too). Everything else — half, and bf16 on HIP (rocWMMA) and the CPU runtime —
// calls load_matrix_sync.
template <class F, class E>
__device__ __forceinline__ void load_frag(F& f, const E* p, unsigned ldm) {
    nvcuda::wmma::load_matrix_sync(f, p, ldm);
}
#ifndef LLAMA_OPS_WMMA_BF16_SHARED
#if LLAMA_OPS_WMMA_BF16 && defined(__NVCC__) && !defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_WMMA_BF16_SHARED 1
#else
#define LLAMA_OPS_WMMA_BF16_SHARED 0
#endif
#endif
#if LLAMA_OPS_WMMA_BF16_SHARED && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// The four registers of a bf16 A or B fragment, filled by one PTX wmma.load from shared memory.
#define LLAMA_OPS_WMMA_LD_BF16(OP)                                                                 \
    asm("wmma.load." OP ".m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;"                      \
        : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])                                           \
        : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))), "r"(ldm)                        \
        : "memory")
__device__ __forceinline__ void load_frag(Frags<bf16>::A& f, const __nv_bfloat16* p,
                                          unsigned ldm) {
    unsigned* x = reinterpret_cast<unsigned*>(&f);
    LLAMA_OPS_WMMA_LD_BF16("a.sync.aligned.row");
}
__device__ __forceinline__ void load_frag(Frags<bf16>::B& f, const __nv_bfloat16* p,
                                          unsigned ldm) {
    unsigned* x = reinterpret_cast<unsigned*>(&f);
    LLAMA_OPS_WMMA_LD_BF16("b.sync.aligned.row");
}
__device__ __forceinline__ void load_frag(Frags<bf16>::Bt& f, const __nv_bfloat16* p,
                                          unsigned ldm) {
    unsigned* x = reinterpret_cast<unsigned*>(&f);
    LLAMA_OPS_WMMA_LD_BF16("b.sync.aligned.col");
}
#undef LLAMA_OPS_WMMA_LD_BF16
static_assert(sizeof(Frags<bf16>::A) == 16 && sizeof(Frags<bf16>::B) == 16 &&
                  sizeof(Frags<bf16>::Bt) == 16,
              "a bf16 m16n16k16 A/B fragment is four 32-bit registers");
#endif

// The element type of a fragment (what load_matrix_sync's pointer must point to).
template <class F>
struct ElemOf;
template <class Use, auto M, auto N, auto K, class T, class L>
struct ElemOf<nvcuda::wmma::fragment<Use, M, N, K, T, L>> {
    using type = T;
};

// Warps per block and key-tile rows. NVIDIA: 128 query rows per block (88 KiB of shared memory
// for d = 128, two blocks per SM); AMD has 64 KiB of LDS per workgroup: 64 rows.
#if defined(LLAMA_OPS_WMMA_WARPS)
constexpr int kFwdWarps = LLAMA_OPS_WMMA_WARPS;
#elif defined(__HIP_PLATFORM_AMD__)
constexpr int kFwdWarps = 4;
#else
constexpr int kFwdWarps = 8;
#endif
// Row fragments per warp for d = 64 (LLAMA_OPS_WMMA_RF64: 1 or 2; d = 128 always 1): with 2, a
// warp owns 32 query rows and every K and V fragment it loads from shared memory feeds two
// products, halving the K/V shared-memory traffic per FLOP (the forward is bound by it), for
// twice the Q and O fragments in registers.
#ifndef LLAMA_OPS_WMMA_RF64
#define LLAMA_OPS_WMMA_RF64 1
#endif
template <int D>
struct FwdShape {
    static constexpr int kWarps = kFwdWarps;
    static constexpr int RF = D <= 64 ? LLAMA_OPS_WMMA_RF64 : 1;
    static_assert(RF == 1 || RF == 2, "LLAMA_OPS_WMMA_RF64 is 1 or 2");
    static constexpr int WR = kFrag * RF;  // query rows a warp owns
    static constexpr int BM = WR * kWarps, BN = 64;
    static constexpr int LDT = D + 8;   // 16-bit tile pitch (elements): rows 16-byte aligned
    // f32 score pitch: 72 words puts the 4 rows of a half-warp's accumulator stores, and the 4
    // rows x 2 lanes of a quarter-warp's 16-byte softmax reads, in distinct banks (68 had
    // 2-way conflicts on both)
    static constexpr int LDS = BN + 8;
    static constexpr int LDP = BN + 8;  // 16-bit probability pitch
    static constexpr size_t tile_bytes = (size_t)BN * LDT * 2;
    static constexpr size_t s_bytes = (size_t)kWarps * WR * LDS * 4;
    static constexpr size_t p_bytes = (size_t)kWarps * WR * LDP * 2;
    static constexpr size_t q_bytes = (size_t)BM * LDT * 2;  // staged once, over sS and sP
    static constexpr int kKBuf = LLAMA_OPS_WMMA_KBUF, kVBuf = LLAMA_OPS_WMMA_VBUF;
    static_assert(kKBuf >= 1 && kKBuf <= 2 && kVBuf >= 1 && kVBuf <= kKBuf,
                  "LLAMA_OPS_WMMA_KBUF 1 or 2; LLAMA_OPS_WMMA_VBUF 1, or 2 with KBUF 2");
    static constexpr size_t smem_bytes = (kKBuf + kVBuf) * tile_bytes +
                                         (s_bytes + p_bytes > q_bytes ? s_bytes + p_bytes : q_bytes);
};

__device__ __forceinline__ const unsigned short* slice(const AttnTensor& t, int b, int h) {
    return static_cast<const unsigned short*>(t.data) + b * t.stride_batch + h * t.stride_head;
}

// Rows row0 .. row0+ROWS-1 of a slice into dst (pitch LD elements), 16 bytes a thread at a time;
// rows >= n are zero.
template <int ROWS, int D, int LD>
__device__ __forceinline__ void load_tile(unsigned short* dst, const unsigned short* src,
                                          long long stride, int row0, int n) {
    constexpr int CH = D / 8;
    for (int i = threadIdx.x; i < ROWS * CH; i += blockDim.x) {
        const int r = i / CH, c = i % CH;
        uint4 v = make_uint4(0u, 0u, 0u, 0u);
        if (row0 + r < n) v = *reinterpret_cast<const uint4*>(src + (row0 + r) * stride + c * 8);
        *reinterpret_cast<uint4*>(dst + r * LD + c * 8) = v;
    }
}

// 16 bytes from global to shared memory: asynchronous with LLAMA_OPS_CP_ASYNC (complete after
// copy_commit + copy_wait), else a plain load and store.
__device__ __forceinline__ void copy16(unsigned short* dst, const unsigned short* src) {
#if LLAMA_OPS_CP_ASYNC
    __pipeline_memcpy_async(dst, src, 16);
#else
    *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
#endif
}
// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void copy_commit() {
#if LLAMA_OPS_CP_ASYNC
    __pipeline_commit();
#endif
}
// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void copy_wait() {
#if LLAMA_OPS_CP_ASYNC
    __pipeline_wait_prior(N);
#endif
}

// load_tile with copy16: complete after copy_commit + copy_wait (and a barrier for other threads).
template <int ROWS, int D, int LD>
__device__ __forceinline__ void load_tile_async(unsigned short* dst, const unsigned short* src,
                                                long long stride, int row0, int n) {
    constexpr int CH = D / 8;
    for (int i = threadIdx.x; i < ROWS * CH; i += blockDim.x) {
        const int r = i / CH, c = i % CH;
        if (row0 + r < n)
            copy16(dst + r * LD + c * 8, src + (row0 + r) * stride + c * 8);
        else
            *reinterpret_cast<uint4*>(dst + r * LD + c * 8) = make_uint4(0u, 0u, 0u, 0u);
    }
}

// Sum over the g consecutive lanes of a row (g a power of two, all lanes calling).
__device__ __forceinline__ float row_sum(float v, int g) {
    for (int offset = g / 2; offset > 0; offset /= 2)
        v += __shfl_xor_sync(LLAMA_OPS_ALL_LANES, v, offset, g);
    return v;
}

// `typename`, not `class`: the wave64 runtime's source transform reads `class` before the
// parameter list as a class scope and would not see `extern __shared__` as function-local.
// One lane's share of a row of the online softmax, G lanes a row: S from the warp's score rows
// (f32), P to its probability rows (16-bit), in chunks of 4 columns (16-byte loads, 8-byte stores)
// interleaved over the G lanes, so that the lanes of a quarter-warp hit different banks. Columns
// >= valid are masked. Updates the row's reference max m (log2 units) and this lane's sum l;
// returns true when O must be rescaled by alpha (the max grew by more than kRescale).
// One pass over S in the common case: the exponentials are taken against the current reference
// max while the tile's max is found; only when that max exceeds the reference by more than
// kRescale (the first tile of a row, then rarely) is the row done again against the new max
// (the first pass's P, possibly overflowed, is overwritten and its sum dropped).
// MASK false: every column is valid (a full tile below the diagonal), no comparisons.
template <class T, int G, int BN, bool MASK>
__device__ __forceinline__ float softmax_pass(const float* srow, unsigned short* prow, int part,
                                              int valid, float c, float base, float* tmax_out) {
    constexpr int NCH = BN / 4 / G;
    float tmax = -INFINITY, sum = 0.f;
#pragma unroll
    for (int q = 0; q < NCH; ++q) {
        const int col = (q * G + part) * 4;
        const float4 x = *reinterpret_cast<const float4*>(srow + col);
        const bool v0 = !MASK || col < valid, v1 = !MASK || col + 1 < valid;
        const bool v2 = !MASK || col + 2 < valid, v3 = !MASK || col + 3 < valid;
        if (tmax_out) {
            if (!MASK) {
                tmax = fmaxf(fmaxf(tmax, fmaxf(x.x, x.y)), fmaxf(x.z, x.w));
            } else {
                if (v0) tmax = fmaxf(tmax, x.x);
                if (v1) tmax = fmaxf(tmax, x.y);
                if (v2) tmax = fmaxf(tmax, x.z);
                if (v3) tmax = fmaxf(tmax, x.w);
            }
        }
        const float p0 = v0 ? exp2f(fmaf(x.x, c, -base)) : 0.f;
        const float p1 = v1 ? exp2f(fmaf(x.y, c, -base)) : 0.f;
        const float p2 = v2 ? exp2f(fmaf(x.z, c, -base)) : 0.f;
        const float p3 = v3 ? exp2f(fmaf(x.w, c, -base)) : 0.f;
        sum += (p0 + p1) + (p2 + p3);
        uint2 w;
        w.x = (unsigned)Frags<T>::bits(p0) | ((unsigned)Frags<T>::bits(p1) << 16);
        w.y = (unsigned)Frags<T>::bits(p2) | ((unsigned)Frags<T>::bits(p3) << 16);
        *reinterpret_cast<uint2*>(prow + col) = w;
    }
    if (tmax_out) *tmax_out = tmax;
    return sum;
}

template <class T, int G, int BN, bool MASK>
__device__ __forceinline__ bool softmax_part(const float* srow, unsigned short* prow, int part,
                                             int valid, float c, float& m, float& l, float& alpha) {
    float tmax;
    float sum = softmax_pass<T, G, BN, MASK>(srow, prow, part, valid, c,
                                             m == -INFINITY ? 0.f : m, &tmax);
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2)
        tmax = fmaxf(tmax, __shfl_xor_sync(LLAMA_OPS_ALL_LANES, tmax, offset, G));
    tmax *= c;  // c > 0: the max of the scaled scores
    bool rescale = false;
    if (tmax > m + kRescale) {    // also the first tile with a key for this row
        alpha = exp2f(m - tmax);  // 0 when m is -inf: nothing accumulated yet
        rescale = m != -INFINITY;
        m = tmax;
        l *= alpha;
        sum = softmax_pass<T, G, BN, MASK>(srow, prow, part, valid, c, m, nullptr);
    }
    l += sum;
    return rescale;
}

template <typename T, int D>
__global__ void __launch_bounds__(kFwdWarps* LLAMA_OPS_MAX_WARP, LLAMA_OPS_WMMA_MIN_BLOCKS)
    flash_fwd_wmma_kernel(FlashFwdParams p) {
    using Sh = FwdShape<D>;
    using FragA = typename Frags<T>::A;
    using FragBt = typename Frags<T>::Bt;
    using FragB = typename Frags<T>::B;
    using E = typename ElemOf<FragA>::type;
    constexpr int BM = Sh::BM, BN = Sh::BN, LDT = Sh::LDT, LDS = Sh::LDS, LDP = Sh::LDP;
    constexpr int RF = Sh::RF, WR = Sh::WR;
    constexpr int DF = D / kFrag, NF = BN / kFrag;

    constexpr int KBUF = Sh::kKBuf, VBUF = Sh::kVBuf;
    extern __shared__ float fa_smem[];
    unsigned short* sK0 = reinterpret_cast<unsigned short*>(fa_smem);  // KBUF K buffers
    unsigned short* sV0 = sK0 + KBUF * BN * LDT;                       // VBUF V buffers
    float* sS = reinterpret_cast<float*>(sV0 + VBUF * BN * LDT);
    unsigned short* sP = reinterpret_cast<unsigned short*>(sS + Sh::kWarps * WR * LDS);
    unsigned short* sQ = reinterpret_cast<unsigned short*>(sS);  // before the key loop only
    __shared__ float sRow[BM];                                   // per-row factor (alpha, 1/l)

    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    const int g = warpSize / kFrag;  // lanes per row: 2 on 32-lane warps, 4 on wavefronts
    const int r = lane / g, part = lane % g;  // rows r, r + 16 (RF 2) of the warp
    const int bh = blockIdx.y, b = bh / p.heads, h = bh % p.heads;
    const int group = p.heads / (p.kv_heads > 0 ? p.kv_heads : p.heads);
    // Query tiles in reverse launch order: with a causal mask the last tiles see the most keys, so
    // they start first and the short ones fill the tail of the grid (no effect without the mask).
    const int q0 = (gridDim.x - 1 - blockIdx.x) * BM, w0 = q0 + warp * WR;
    float* sSw = sS + warp * WR * LDS;
    unsigned short* sPw = sP + warp * WR * LDP;
    float* sRw = sRow + warp * WR;
    const unsigned short* k = slice(p.k, b, h / group);
    const unsigned short* v = slice(p.v, b, h / group);

    load_tile_async<BN, D, LDT>(sK0, k, p.k.stride_row, 0, p.seq_k);  // K(0), in flight
    if (VBUF == 2) load_tile_async<BN, D, LDT>(sV0, v, p.v.stride_row, 0, p.seq_k);  // and V(0)
    copy_commit();
    load_tile<BM, D, LDT>(sQ, slice(p.q, b, h), p.q.stride_row, q0, p.seq_q);
    __syncthreads();
    FragA qf[RF][DF];
#pragma unroll
    for (int f = 0; f < RF; ++f)
#pragma unroll
        for (int kk = 0; kk < DF; ++kk)
            load_frag(qf[f][kk],
                      reinterpret_cast<const E*>(sQ) + (warp * WR + f * kFrag) * LDT + kk * kFrag,
                      LDT);
    FragC of[RF][DF];
#pragma unroll
    for (int f = 0; f < RF; ++f)
#pragma unroll
        for (int n = 0; n < DF; ++n) nvcuda::wmma::fill_fragment(of[f][n], 0.f);
    __syncthreads();  // sQ is overwritten by sS and sP

    const float c = p.scale * kLog2e;
    float m[RF], l[RF];  // each row's reference max (log2 units), this lane's part of its sum
#pragma unroll
    for (int f = 0; f < RF; ++f) m[f] = -INFINITY, l[f] = 0.f;
    int n_tiles = (p.seq_k + BN - 1) / BN;
    if (p.causal) {
        const int last = (q0 + BM - 1) / BN + 1;
        n_tiles = last < n_tiles ? last : n_tiles;
    }
    for (int t = 0; t < n_tiles; ++t) {
        const int k0 = t * BN;
        const unsigned short* sK = sK0 + (KBUF == 2 ? (t & 1) * BN * LDT : 0);
        const unsigned short* sV = sV0 + (VBUF == 2 ? (t & 1) * BN * LDT : 0);
        copy_wait<0>();   // K(t) (and V(t) with VBUF 2), the only group in flight
        __syncthreads();  // K(t) for all; every warp is past P V(t-1) (and S(t-1))
        if (VBUF == 2) {  // K(t+1), V(t+1) into the other buffers, read last by tile t-1
            if (t + 1 < n_tiles) {
                load_tile_async<BN, D, LDT>(sK0 + ((t + 1) & 1) * BN * LDT, k, p.k.stride_row,
                                            k0 + BN, p.seq_k);
                load_tile_async<BN, D, LDT>(sV0 + ((t + 1) & 1) * BN * LDT, v, p.v.stride_row,
                                            k0 + BN, p.seq_k);
            }
            copy_commit();
        } else {
            load_tile_async<BN, D, LDT>(sV0, v, p.v.stride_row, k0, p.seq_k);  // V(t)
            copy_commit();
        }
        if (KBUF == 2 && VBUF == 1) {  // K(t+1) into the other buffer, read last by S(t-1)
            if (t + 1 < n_tiles)
                load_tile_async<BN, D, LDT>(sK0 + ((t + 1) & 1) * BN * LDT, k, p.k.stride_row,
                                            k0 + BN, p.seq_k);
            copy_commit();
        }
        // A warp whose rows all lie above this tile's first key sees none of it (causal).
        const bool active = !(p.causal && k0 > w0 + WR - 1);
        if (active) {
#pragma unroll
            for (int j = 0; j < NF; ++j) {
                FragC sf[RF];
#pragma unroll
                for (int f = 0; f < RF; ++f) nvcuda::wmma::fill_fragment(sf[f], 0.f);
#pragma unroll
                for (int kk = 0; kk < DF; ++kk) {
                    FragBt kb;
                    load_frag(kb, reinterpret_cast<const E*>(sK) + j * kFrag * LDT + kk * kFrag,
                              LDT);
#pragma unroll
                    for (int f = 0; f < RF; ++f) nvcuda::wmma::mma_sync(sf[f], qf[f][kk], kb, sf[f]);
                }
#pragma unroll
                for (int f = 0; f < RF; ++f)
                    nvcuda::wmma::store_matrix_sync(sSw + f * kFrag * LDS + j * kFrag, sf[f], LDS,
                                                    nvcuda::wmma::mem_row_major);
            }
        }
        __syncwarp();  // the warp's S rows, written through the fragments, are read by lane below

        bool rescale = false;
#pragma unroll
        for (int f = 0; f < RF; ++f) {
            const int rr = f * kFrag + r, qi = w0 + rr;
            if (active) {
                // Keys of this tile the row may see: a prefix of `valid` columns (tail, causal).
                int valid = p.seq_k - k0;
                if (p.causal && qi - k0 + 1 < valid) valid = qi - k0 + 1;
                float alpha = 1.f;
                const float* srow = sSw + rr * LDS;
                unsigned short* prow = sPw + rr * LDP;
                // The 16 rows of fragment f all see the whole tile: no per-column masks (the
                // common case).
                const int f0 = w0 + f * kFrag;
                const bool full = LLAMA_OPS_WMMA_FASTMASK && p.seq_k - k0 >= BN &&
                                  !(p.causal && f0 < k0 + BN - 1);
                bool rs;
                if (g == 2)
                    rs = full ? softmax_part<T, 2, BN, false>(srow, prow, part, valid, c, m[f], l[f], alpha)
                              : softmax_part<T, 2, BN, true>(srow, prow, part, valid, c, m[f], l[f], alpha);
                else
                    rs = full ? softmax_part<T, 4, BN, false>(srow, prow, part, valid, c, m[f], l[f], alpha)
                              : softmax_part<T, 4, BN, true>(srow, prow, part, valid, c, m[f], l[f], alpha);
                rescale = rescale || rs;
                if (part == 0) sRw[rr] = alpha;
            } else if (part == 0) {
                sRw[rr] = 1.f;
            }
        }
        __syncwarp();  // P and the row factors are read by the whole warp below
        if (__any_sync(LLAMA_OPS_ALL_LANES, rescale)) {
            // O *= alpha per row, NF fragments at a time through the warp's score rows.
#pragma unroll
            for (int f = 0; f < RF; ++f) {
                float* xs = sSw + f * kFrag * LDS;
                for (int n0 = 0; n0 < DF; n0 += NF) {
#pragma unroll
                    for (int j = 0; j < NF; ++j)
                        if (n0 + j < DF)
                            nvcuda::wmma::store_matrix_sync(xs + j * kFrag, of[f][n0 + j], LDS,
                                                            nvcuda::wmma::mem_row_major);
                    __syncwarp();
                    for (int i = lane; i < kFrag * BN; i += warpSize) {
                        const int rr = i / BN, cc = i % BN;
                        xs[rr * LDS + cc] *= sRw[f * kFrag + rr];
                    }
                    __syncwarp();
#pragma unroll
                    for (int j = 0; j < NF; ++j)
                        if (n0 + j < DF)
                            nvcuda::wmma::load_matrix_sync(of[f][n0 + j], xs + j * kFrag, LDS,
                                                           nvcuda::wmma::mem_row_major);
                    __syncwarp();
                }
            }
        }
        if (VBUF == 1) {
            copy_wait<KBUF - 1>();  // V(t) (K(t+1) may still be in flight)
            __syncthreads();        // V(t) for all; every warp is past S(t)
        }
        if (KBUF == 1 && t + 1 < n_tiles) {  // K(t+1), landing during P V(t)
            load_tile_async<BN, D, LDT>(sK0, k, p.k.stride_row, k0 + BN, p.seq_k);
            copy_commit();
        }
        if (active) {
#pragma unroll
            for (int kk = 0; kk < NF; ++kk) {
                FragA pf[RF];
#pragma unroll
                for (int f = 0; f < RF; ++f)
                    load_frag(pf[f],
                              reinterpret_cast<const E*>(sPw) + f * kFrag * LDP + kk * kFrag, LDP);
#pragma unroll
                for (int n = 0; n < DF; ++n) {
                    FragB vb;
                    load_frag(vb, reinterpret_cast<const E*>(sV) + kk * kFrag * LDT + n * kFrag,
                              LDT);
#pragma unroll
                    for (int f = 0; f < RF; ++f)
                        nvcuda::wmma::mma_sync(of[f][n], pf[f], vb, of[f][n]);
                }
            }
        }
    }

    // O / l, written 16-bit: NF fragments at a time through the warp's score rows.
    unsigned short* o =
        static_cast<unsigned short*>(p.o.data) + b * p.o.stride_batch + h * p.o.stride_head;
#pragma unroll
    for (int f = 0; f < RF; ++f) {
        const int rr = f * kFrag + r, qi = w0 + rr;
        const float sum = row_sum(l[f], g);
        if (part == 0) sRw[rr] = 1.f / sum;
        if (part == 0 && p.lse && qi < p.seq_q)
            p.lse[(long long)bh * p.seq_q + qi] = (m[f] + log2f(sum)) / kLog2e;
    }
#pragma unroll
    for (int f = 0; f < RF; ++f) {
        float* xs = sSw + f * kFrag * LDS;
        for (int n0 = 0; n0 < DF; n0 += NF) {
#pragma unroll
            for (int j = 0; j < NF; ++j)
                if (n0 + j < DF)
                    nvcuda::wmma::store_matrix_sync(xs + j * kFrag, of[f][n0 + j], LDS,
                                                    nvcuda::wmma::mem_row_major);
            __syncwarp();
            constexpr int W = (D < BN ? D : BN);  // columns of this round
            for (int i = lane; i < kFrag * W / 8; i += warpSize) {
                const int rr = i / (W / 8), c8 = (i % (W / 8)) * 8;
                const int row = w0 + f * kFrag + rr;
                if (row < p.seq_q) {
                    *reinterpret_cast<uint4*>(o + row * p.o.stride_row + n0 * kFrag + c8) =
                        pack8<T>(xs + rr * LDS + c8, sRw[f * kFrag + rr]);
                }
            }
            __syncwarp();
        }
    }
}

}  // namespace flash_wmma
}  // namespace llama_ops
