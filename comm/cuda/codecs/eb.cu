// GPU eb codec (include/ferry/comm/cuda/codecs.hpp): the error-bounded codec with the CPU codec's
// decisions (same base, q and raw blocks, so decoded values are bit-identical and |y - x| <= e holds
// element by element), written in the planar layout of ferry/comm/codec_wire.hpp so that decoding
// needs one scan instead of a serial walk over variable-size blocks.
//
// Two kernel families, the same bytes:
//   general  one warp per codec block, any block size: widths, bases and payload sizes (pass 1), a
//            CUB scan for offsets, the payloads (pass 2); decoding the same way round.
//   fast     block 128, x 16-byte aligned: one pass over x, payload offsets found in the same pass
//            by a decoupled look-back across tiles (look_back.cuh), each tile's payloads packed in
//            shared memory and copied out contiguously.
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common.cuh"
#include "look_back.cuh"

namespace ferry::comm::cuda {
namespace {

using namespace detail;

constexpr std::uint8_t raw_width = wire::eb_raw_width;

// ---- general kernels ------------------------------------------------------------------------

struct EbParams {
  double e;
  float step, inv;
};

// Pass 1: base, bit width (or raw) and payload size per block, exactly as eb.cpp's encode().
__global__ void eb_scan_blocks(const float* x, std::size_t n, std::size_t block, std::size_t nblocks, EbParams P,
                               std::uint8_t* bits, float* base_out, std::uint64_t* psize) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  float mn = x[b0], mx = x[b0];
  bool fin = true;
  for (std::size_t i = lane; i < len; i += 32) {
    float v = x[b0 + i];
    fin &= finite(v);
    mn = fminf(mn, v);
    mx = fmaxf(mx, v);
  }
  fin = __all_sync(full_mask, fin);
  mn = warp_min(mn);
  mx = warp_max(mx);
  bool ok = fin && P.step > 0 && finite(P.inv) && (static_cast<double>(mx) - mn) * P.inv < wire::eb_max_steps;
  const float base = __double2float_rn(0.5 * (static_cast<double>(mn) + mx));
  std::uint32_t any = 0;
  bool miss = false;
  if (ok) {
    for (std::size_t i = lane; i < len; i += 32) {
      float v = x[b0 + i];
      auto q = static_cast<std::int32_t>(round_even(__fmul_rn(__fsub_rn(v, base), P.inv)));
      float y = __fadd_rn(base, __fmul_rn(static_cast<float>(q), P.step));
      miss |= !(fabs(static_cast<double>(y) - static_cast<double>(v)) <= P.e);
      any |= wire::zigzag(q);
    }
    for (int o = 16; o > 0; o >>= 1) any |= __shfl_xor_sync(full_mask, any, o);
    ok = !__any_sync(full_mask, miss);
  }
  if (lane != 0) return;
  const unsigned w = 32 - __clz(static_cast<int>(any));
  bits[b] = ok ? static_cast<std::uint8_t>(w) : raw_width;
  base_out[b] = ok ? base : 0.0f;
  psize[b] = ok ? wire::packed_bytes(len, w) : 4 * len;
}

// Pass 2: payloads. Each warp packs its block in shared memory (atomicOr, LSB first) and copies
// packed_bytes(len, bits) bytes out: the same bits as bitpack.hpp's pack_bits.
__global__ void eb_write(const float* x, std::size_t n, std::size_t block, std::size_t nblocks, EbParams P,
                         const std::uint8_t* bits, const float* base_in, const std::uint64_t* poff,
                         std::byte* payload) {
  extern __shared__ std::uint32_t smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const std::size_t words = block + 1;  // block * 32 bits at most, plus one word of spill
  std::uint32_t* acc = smem + warp * words;
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * warps_per_cta + warp;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  std::byte* p = payload + poff[b];
  const unsigned w = bits[b];
  if (w == raw_width) {
    for (std::size_t i = lane; i < len; i += 32) store_u32(p + 4 * i, __float_as_uint(x[b0 + i]));
    return;
  }
  if (w == 0) return;
  const std::size_t nbytes = wire::packed_bytes(len, w);
  for (std::size_t k = lane; k < (nbytes + 3) / 4; k += 32) acc[k] = 0;
  __syncwarp();
  const float base = base_in[b];
  for (std::size_t i = lane; i < len; i += 32) {
    auto q = static_cast<std::int32_t>(round_even(__fmul_rn(__fsub_rn(x[b0 + i], base), P.inv)));
    auto z = static_cast<std::uint64_t>(wire::zigzag(q));
    const std::size_t bit = i * w;
    const std::uint64_t v = z << (bit & 31);
    atomicOr(&acc[bit >> 5], static_cast<std::uint32_t>(v));
    if ((bit & 31) + w > 32) atomicOr(&acc[(bit >> 5) + 1], static_cast<std::uint32_t>(v >> 32));
  }
  __syncwarp();
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(acc);
  for (std::size_t k = lane; k < nbytes; k += 32) p[k] = static_cast<std::byte>(bytes[k]);
}

__global__ void eb_payload_sizes(const std::uint8_t* bits, std::size_t n, std::size_t block, std::size_t nblocks,
                                 std::uint64_t* psize) {
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nblocks) return;
  const std::size_t len = min(block, n - b * block);
  const unsigned w = bits[b];
  psize[b] = w == raw_width ? 4 * len : wire::packed_bytes(len, w);
}

__global__ void eb_decode(const std::byte* payload, std::size_t n, std::size_t block, std::size_t nblocks, float step,
                          const std::uint8_t* bits, const float* base_in, const std::uint64_t* poff, float* y) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* p = payload + poff[b];
  const unsigned w = bits[b];
  if (w == raw_width) {
    for (std::size_t i = lane; i < len; i += 32) y[b0 + i] = __uint_as_float(load_u32(p + 4 * i));
    return;
  }
  const float base = base_in[b];
  const std::size_t nbytes = wire::packed_bytes(len, w);
  const std::uint64_t mask = w == 32 ? 0xFFFFFFFFull : ((1ull << w) - 1);
  for (std::size_t i = lane; i < len; i += 32) {
    std::uint32_t z = 0;
    if (w > 0) {
      const std::size_t bit = i * w, byte = bit >> 3;
      std::uint64_t acc = 0;
      for (std::size_t k = 0; k < 5 && byte + k < nbytes; ++k)
        acc |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(p[byte + k])) << (8 * k);
      z = static_cast<std::uint32_t>((acc >> (bit & 7)) & mask);
    }
    auto q = wire::unzigzag(z);
    y[b0 + i] = __fadd_rn(base, __fmul_rn(static_cast<float>(q), step));
  }
}

// ---- fast kernels ---------------------------------------------------------------------------

struct EbDev {  // the bound and its derived step, computed once per call on the device
  double e;
  float step, inv;
  float e_f;  // the largest float <= e: for a float d, d <= e exactly when d <= e_f
};

// e = abs, or rel * max finite |x|; FLT_MIN if that is not positive; step = float(2e), inv = 1/step
// (IEEE, as the host computes it for eb.cpp). Writes e into the stream header.
__global__ void eb_params(const unsigned* mbits, double abs, double rel, EbDev* P, std::byte* head, std::uint64_t n,
                          std::uint32_t block, std::uint32_t nb) {
  double e = abs;
  if (!(abs > 0)) e = __dmul_rn(rel, static_cast<double>(__uint_as_float(*mbits)));
  if (!(e > 0)) e = wire::bound_floor;
  const float step = __double2float_rn(__dmul_rn(2.0, e));
  P->e = e;
  P->e_f = __double2float_rd(e);
  P->step = step;
  P->inv = __fdiv_rn(1.0f, step);
  // the planar header (codec_wire.hpp), little-endian, unaligned
  const auto bits = static_cast<unsigned long long>(__double_as_longlong(e));
  head[0] = static_cast<std::byte>(wire::eb_planar_tag);
  for (int k = 0; k < 8; ++k) head[wire::eb_planar_n_at + k] = static_cast<std::byte>((n >> (8 * k)) & 0xFF);
  for (int k = 0; k < 8; ++k) head[wire::eb_planar_e_at + k] = static_cast<std::byte>((bits >> (8 * k)) & 0xFF);
  for (int k = 0; k < 4; ++k) head[wire::eb_planar_block_at + k] = static_cast<std::byte>((block >> (8 * k)) & 0xFF);
  for (int k = 0; k < 4; ++k) head[wire::eb_planar_nblocks_at + k] = static_cast<std::byte>((nb >> (8 * k)) & 0xFF);
}

// The fused eb kernels: a tile is one CTA of eb_warps warps, each warp taking K
// consecutive codec blocks of 128 (one float4 per lane per block); large tiles keep the number of
// look-backs (serial through L2) small.
constexpr int eb_warps = 8;

// Per tile: the payload sizes of its blocks in smem (sz), returns the byte offset of block
// (warp, k) after the look-back.
template <int K>
struct EbTileSizes {
  unsigned long long sz[eb_warps][K];
  unsigned long long warp_excl[eb_warps];
  unsigned long long tile_excl;
  unsigned tile;
};

// After every warp wrote sz[warp][*]: the look-back (warp 0), then each warp's exclusive offset.
// Also stores the grand total when this is the last tile.
// Run by warp 0 of a tile: lane w < eb_warps gets warp w's payload offset inside the tile (the
// exclusive prefix of the warps' sums of sz), every lane gets the tile's total in `agg`.
template <int K>
__device__ __forceinline__ unsigned long long tile_warp_offset(const EbTileSizes<K>& T, int lane,
                                                               unsigned long long& agg) {
  unsigned long long ws = 0;
  if (lane < eb_warps)
    for (int k = 0; k < K; ++k) ws += T.sz[lane][k];
  unsigned long long incl = ws;  // inclusive prefix over the warps (eb_warps <= 32)
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned long long u = __shfl_up_sync(full_mask, incl, o);
    if (lane >= o) incl += u;
  }
  agg = __shfl_sync(full_mask, incl, 31);
  return incl - ws;
}

template <int K>
__device__ void eb_tile_offsets(EbTileSizes<K>& T, unsigned long long* state, std::size_t ntiles,
                                unsigned long long* total) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  __syncthreads();
  if (warp == 0) {
    unsigned long long agg = 0;
    const unsigned long long in_tile = tile_warp_offset(T, lane, agg);
    const unsigned long long excl = look_back(state, T.tile, agg, lane);
    if (lane < eb_warps) T.warp_excl[lane] = in_tile;
    if (lane == 0) {
      T.tile_excl = excl;
      if (total && T.tile + 1 == ntiles) *total = excl + agg;
    }
  }
  __syncthreads();
}

template <int K>
__device__ __forceinline__ unsigned take_tile(unsigned long long* counter, EbTileSizes<K>& T) {
  if (threadIdx.x == 0) T.tile = static_cast<unsigned>(atomicAdd(counter, 1ull));
  __syncthreads();
  return T.tile;
}

// Order-preserving int keys of floats (finite ones; NaN/Inf make the block raw anyway), so that a
// warp's min and max are one redux instruction each.
__device__ __forceinline__ int float_key(float f) {
  const int b = __float_as_int(f);
  return b >= 0 ? b : b ^ 0x7FFFFFFF;
}
__device__ __forceinline__ float key_float(int k) { return __int_as_float(k >= 0 ? k : k ^ 0x7FFFFFFF); }

__device__ __noinline__ bool eb_within_slow(float y, float v, double e) {
  return fabs(static_cast<double>(y) - static_cast<double>(v)) <= e;
}
// |y - v| <= e evaluated in double (as eb.cpp), but in float where that is exact: TwoSum says
// whether y - v is exact in float; if so compare with e_f, else (rarely) in double, out of line.
__device__ __forceinline__ bool eb_within_fast(float y, float v, const EbDev& P) {
  const float d = __fsub_rn(y, v);
  const float bb = __fsub_rn(d, y);
  const float err = __fadd_rn(__fsub_rn(y, __fsub_rn(d, bb)), __fsub_rn(-v, bb));
  if (__builtin_expect(err == 0.0f, 1)) return fabsf(d) <= P.e_f;
  return eb_within_slow(y, v, P.e);
}

// One tile of eb_fused_compress. FULL: every block of the tile is whole and inside n (all but
// the last tile), so the element guards compile away.
// Order of work: loads and the per-block decisions; the tile's aggregate size is published at
// once (so successors' look-backs need not wait for this tile's packing); every warp packs its
// blocks into the tile's contiguous image in shared memory while warp 0 walks back for the
// tile's offset; then the whole CTA copies the image out.
template <int K>
struct EbTileImage {
  static constexpr int words = eb_warps * K * 128 + 4;  // worst case: every block raw (512 bytes)
  std::uint32_t w[words];
  unsigned off[eb_warps][K];  // byte offset of each block's payload in the image
  unsigned long long agg, excl;
};

template <int K, bool FULL>
__device__ __forceinline__ void eb_compress_tile(const float* x, std::size_t n, std::size_t nb, const EbDev& P,
                                                 std::uint8_t* bits, float* base_out, std::byte* payload,
                                                 unsigned long long* lb, unsigned long long* total, std::size_t ntiles,
                                                 EbTileImage<K>& I, EbTileSizes<K>& T) {
  constexpr int B = 128, tile_blocks = eb_warps * K;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const std::size_t first = static_cast<std::size_t>(T.tile) * tile_blocks + static_cast<std::size_t>(warp) * K;
  float v[K][4];
  int cnt[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {  // all loads first: K float4 in flight per lane
    const std::size_t b = first + k, i = b * B + 4 * static_cast<std::size_t>(lane);
    if (FULL) {
      const float4 a4 = *reinterpret_cast<const float4*>(x + i);
      v[k][0] = a4.x, v[k][1] = a4.y, v[k][2] = a4.z, v[k][3] = a4.w;
      cnt[k] = 4;
    } else {
      cnt[k] = b < nb && i < n ? load4(x, i, n, v[k]) : 0;
      if (!cnt[k]) v[k][0] = v[k][1] = v[k][2] = v[k][3] = 0.0f;
    }
  }
  unsigned wbits[K];
  bool okk[K];
  float basek[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::size_t b = first + k;
    const bool active = FULL || b < nb;
    const unsigned len = FULL ? B : (active ? static_cast<unsigned>(min(static_cast<std::size_t>(B), n - b * B)) : 0u);
    int kmn = INT_MAX, kmx = INT_MIN;
    bool fin = true;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (FULL || j < cnt[k]) {
        fin &= finite(v[k][j]);
        const int key = float_key(v[k][j]);
        kmn = min(kmn, key);
        kmx = max(kmx, key);
      }
    fin = __all_sync(full_mask, fin);
    const float mn = key_float(__reduce_min_sync(full_mask, kmn)), mx = key_float(__reduce_max_sync(full_mask, kmx));
    bool ok = fin && P.step > 0 && finite(P.inv) && (static_cast<double>(mx) - mn) * P.inv < wire::eb_max_steps;
    const float base = __double2float_rn(0.5 * (static_cast<double>(mn) + mx));
    std::uint32_t any = 0;
    if (ok) {
      bool miss = false;
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (FULL || j < cnt[k]) {
          float qf;  // |t| <= 2e6 < 2^22: the range test above
          const std::int32_t q = round_even_int(__fmul_rn(__fsub_rn(v[k][j], base), P.inv), qf);
          const float y = __fadd_rn(base, __fmul_rn(qf, P.step));
          miss |= !eb_within_fast(y, v[k][j], P);
          any |= wire::zigzag(q);
        }
      any = __reduce_or_sync(full_mask, any);
      ok = !__any_sync(full_mask, miss);
    }
    const unsigned w = 32 - __clz(static_cast<int>(any));
    wbits[k] = w;
    okk[k] = ok;
    basek[k] = base;
    if (lane == 0) {
      if (active) {
        bits[b] = ok ? static_cast<std::uint8_t>(w) : raw_width;
        base_out[b] = ok ? base : 0.0f;
      }
      T.sz[warp][k] = !active ? 0 : ok ? wire::packed_bytes(len, w) : 4 * len;
    }
  }
  __syncthreads();
  if (warp == 0) {  // offsets inside the tile, and the aggregate, published at once
    unsigned long long agg = 0;
    const unsigned long long in_tile = tile_warp_offset(T, lane, agg);
    if (lane < eb_warps) {
      unsigned o = static_cast<unsigned>(in_tile);
      for (int k = 0; k < K; ++k) I.off[lane][k] = o, o += static_cast<unsigned>(T.sz[lane][k]);
    }
    if (lane == 0) {
      I.agg = agg;
      look_back_publish(lb + 1, T.tile, agg);
    }
  }
  __syncthreads();
  const unsigned agg = static_cast<unsigned>(I.agg);
  for (unsigned j = threadIdx.x; j < (agg + 3) / 4 + 1; j += blockDim.x) I.w[j] = 0;
  __syncthreads();
  auto* img = reinterpret_cast<std::uint8_t*>(I.w);
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if (!FULL && first + k >= nb) break;
    const unsigned o = I.off[warp][k];
    if (!okk[k]) {  // raw: the floats' bytes, ORed in like the packed blocks that may share a word
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (FULL || j < cnt[k]) {
          const std::uint32_t u = __float_as_uint(v[k][j]);
          const unsigned at = o + 4 * (4 * static_cast<unsigned>(lane) + j), sh = 8 * (at & 3);
          atomicOr(&I.w[at >> 2], u << sh);
          if (sh) atomicOr(&I.w[(at >> 2) + 1], u >> (32 - sh));
        }
      continue;
    }
    const unsigned w = wbits[k];
    if (w == 0) continue;
    std::uint32_t zk[4];  // recomputed: cheaper than keeping 4K more registers live
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float qf;
      const std::int32_t q = round_even_int(__fmul_rn(__fsub_rn(v[k][j], basek[k]), P.inv), qf);
      // wire::zigzag(q), written out: a call here makes nvcc branch where it now selects
      zk[j] = (FULL || j < cnt[k]) ? static_cast<std::uint32_t>((q << 1) ^ (q >> 31)) : 0u;
    }
    const unsigned bit0 = 8 * o + 4 * static_cast<unsigned>(lane) * w;  // in the tile image
    if (w <= 8) {  // the lane's 4w <= 32 bits as one chunk: at most two word ORs
      std::uint32_t chunk = 0;
#pragma unroll
      for (int j = 0; j < 4; ++j) chunk |= zk[j] << (j * w);
      const unsigned sh = bit0 & 31, word = bit0 >> 5;
      const std::uint32_t lo = chunk << sh, hi = sh ? chunk >> (32 - sh) : 0u;
      if (lo) atomicOr(&I.w[word], lo);
      if (hi) atomicOr(&I.w[word + 1], hi);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const unsigned bit = bit0 + static_cast<unsigned>(j) * w;
        const std::uint64_t sh = static_cast<std::uint64_t>(zk[j]) << (bit & 31);
        if (static_cast<std::uint32_t>(sh)) atomicOr(&I.w[bit >> 5], static_cast<std::uint32_t>(sh));
        if ((bit & 31) + w > 32) atomicOr(&I.w[(bit >> 5) + 1], static_cast<std::uint32_t>(sh >> 32));
      }
    }
  }
  if (warp == 0) {
    const unsigned long long excl = look_back_walk(lb + 1, T.tile, I.agg, lane);
    if (lane == 0) {
      I.excl = excl;
      if (total && T.tile + 1 == ntiles) *total = excl + I.agg;
    }
  }
  __syncthreads();
  std::byte* dst = payload + I.excl;
  for (unsigned j = threadIdx.x; j < agg; j += blockDim.x) dst[j] = static_cast<std::byte>(img[j]);
}

// eb, block 128: bits, base and payload in one pass over x. Same decisions as eb_scan_blocks +
// eb_write.
template <int K>
__global__ void __launch_bounds__(32 * eb_warps)
    eb_fused_compress(const float* x, std::size_t n, std::size_t nb, const EbDev* Pp, std::uint8_t* bits,
                      float* base_out, std::byte* payload, unsigned long long* lb, unsigned long long* total) {
  constexpr int B = 128, tile_blocks = eb_warps * K;
  __shared__ EbTileImage<K> I;
  __shared__ EbTileSizes<K> T;
  const std::size_t ntiles = (nb + tile_blocks - 1) / tile_blocks;
  const unsigned tile = take_tile(lb, T);
  const EbDev P = *Pp;
  if ((static_cast<std::size_t>(tile) + 1) * tile_blocks * B <= n)
    eb_compress_tile<K, true>(x, n, nb, P, bits, base_out, payload, lb, total, ntiles, I, T);
  else eb_compress_tile<K, false>(x, n, nb, P, bits, base_out, payload, lb, total, ntiles, I, T);
}

// eb decoding, block 128: payload offsets from the bits array by look-back, one pass. Sets
// *overrun (and writes nothing for that block) where a payload would end past payload_bytes or a
// width is not 0..32 / raw.
template <int K>
__global__ void __launch_bounds__(32 * eb_warps)
    eb_fused_decode(const std::byte* payload, std::size_t n, std::size_t nb, float step, const std::uint8_t* bits,
                    const float* base_in, std::size_t payload_bytes, unsigned long long* lb, unsigned* overrun,
                    float* y) {
  constexpr int B = 128, tile_blocks = eb_warps * K;
  __shared__ std::uint8_t stage[eb_warps][4 * B + 8];
  __shared__ EbTileSizes<K> T;
  const std::size_t ntiles = (nb + tile_blocks - 1) / tile_blocks;
  const unsigned tile = take_tile(lb, T);
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const std::size_t first = static_cast<std::size_t>(tile) * tile_blocks + static_cast<std::size_t>(warp) * K;
  if (lane < K) {
    const std::size_t b = first + lane;
    const std::size_t len = b < nb ? min(static_cast<std::size_t>(B), n - b * B) : 0;
    const unsigned w = b < nb ? bits[b] : 0;
    T.sz[warp][lane] = b >= nb ? 0 : w == raw_width ? 4 * len : w > 32 ? 0 : wire::packed_bytes(len, w);
  }
  eb_tile_offsets(T, lb + 1, ntiles, nullptr);
  std::size_t off = T.tile_excl + T.warp_excl[warp];
  std::uint8_t* st = stage[warp];
  for (int k = 0; k < K; ++k) {
    const std::size_t b = first + k;
    if (b >= nb) break;
    const std::size_t b0 = b * B, len = min(static_cast<std::size_t>(B), n - b0);
    const unsigned w = bits[b];
    const std::byte* p = payload + off;
    off += T.sz[warp][k];
    if (off > payload_bytes || (w > 32 && w != raw_width)) {  // corrupt: read nothing past the end
      if (lane == 0) atomicOr(overrun, 1u);
      continue;
    }
    const std::size_t i = b0 + 4 * static_cast<std::size_t>(lane);
    const int cnt = i >= n ? 0 : (i + 3 < n ? 4 : static_cast<int>(n - i));
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (w == raw_width) {
      for (int j = 0; j < cnt; ++j) v[j] = __uint_as_float(load_u32(p + 4 * (i - b0 + j)));
      store4(y, i, cnt, v);
      continue;
    }
    const float base = base_in[b];
    const std::size_t nbytes = wire::packed_bytes(len, w);
    for (std::size_t j = lane; j < nbytes + 8; j += 32) st[j] = j < nbytes ? static_cast<std::uint8_t>(p[j]) : 0;
    __syncwarp();
    const std::uint64_t mask = w == 32 ? 0xFFFFFFFFull : ((1ull << w) - 1);
    for (int j = 0; j < 4; ++j) {
      std::uint32_t zz = 0;
      if (w > 0) {
        const std::size_t bit = (4 * static_cast<std::size_t>(lane) + j) * w, byte = bit >> 3;
        std::uint64_t word = 0;
        for (int c = 0; c < 5; ++c) word |= static_cast<std::uint64_t>(st[byte + c]) << (8 * c);
        zz = static_cast<std::uint32_t>((word >> (bit & 7)) & mask);
      }
      const auto q = wire::unzigzag(zz);
      // |q| < 2^22 in a valid stream (the encoder's range test); wider widths take the conversion
      const float qf = w <= 22 ? int_to_float_small(q) : static_cast<float>(q);
      v[j] = __fadd_rn(base, __fmul_rn(qf, step));
    }
    store4(y, i, cnt, v);
    __syncwarp();  // st is reused by the next block
  }
}

// ---- launching ------------------------------------------------------------------------------

template <class F>
void dispatch_eb(int k, F&& f) {
  using std::integral_constant;
  switch (k) {
    case 1: f(integral_constant<int, 1>{}); break;
    case 2: f(integral_constant<int, 2>{}); break;
    case 4: f(integral_constant<int, 4>{}); break;
    default: f(integral_constant<int, 8>{}); break;
  }
}
int eb_k(int k) { return k == 1 || k == 2 || k == 4 ? k : 8; }

}  // namespace

// ---- entry points ---------------------------------------------------------------------------

std::size_t eb_max_bytes(std::size_t n, std::size_t block) { return wire::eb_planar_max_bytes(n, block); }

std::size_t eb_compress(const float* x, std::size_t n, double abs, double rel, std::size_t block, std::byte* out,
                        std::size_t out_bytes, Workspace& ws, cudaStream_t s) {
  if (block == 0) block = wire::eb_default_block;
  if (out_bytes < eb_max_bytes(n, block)) throw std::invalid_argument("ferry-comm cuda eb: output too small");
  if (!aligned(out, 4)) {  // the planar layout stores floats: build it aligned, then move it
    const std::size_t cap = eb_max_bytes(n, block);
    auto* tmp = static_cast<std::byte*>(ws.get(Slot::staging, cap));
    const std::size_t bytes = eb_compress(x, n, abs, rel, block, tmp, cap, ws, s);
    check(cudaMemcpyAsync(out, tmp, bytes, cudaMemcpyDeviceToDevice, s), "eb move");
    check(cudaStreamSynchronize(s), "eb sync");
    return bytes;
  }
  if (n > 0 && block == 128 && fast_paths_enabled() && aligned(x, 16) && aligned(out, 4)) {
    const wire::EbPlanarLayout L = wire::eb_planar_layout(n, block);
    auto* m = static_cast<unsigned*>(ws.get(Slot::flag, 8));
    if (!(abs > 0)) queue_max_finite_abs(x, n, m, s);  // stays on the device for eb_params
    auto* P = static_cast<EbDev*>(ws.get(Slot::eb_bound, sizeof(EbDev)));
    eb_params<<<1, 1, 0, s>>>(m, abs, rel, P, out, n, 128, static_cast<std::uint32_t>(L.nblocks));  // and the header
    check(cudaGetLastError(), "eb_params");
    const int K = eb_k(current_tuning().eb_compress_blocks_per_warp);
    const std::size_t tile_blocks = static_cast<std::size_t>(eb_warps) * K;
    const std::size_t ntiles = (L.nblocks + tile_blocks - 1) / tile_blocks;
    auto* lb = static_cast<unsigned long long*>(ws.get(Slot::look_back, (ntiles + 2) * 8));
    check(cudaMemsetAsync(lb, 0, (ntiles + 2) * 8, s), "eb look-back state");
    dispatch_eb(K, [&](auto k) {
      eb_fused_compress<decltype(k)::value><<<static_cast<unsigned>(ntiles), 32 * eb_warps, 0, s>>>(
          x, n, L.nblocks, P, reinterpret_cast<std::uint8_t*>(out + L.widths_at),
          reinterpret_cast<float*>(out + L.bases_at), out + L.payload_at, lb, lb + ntiles + 1);
    });
    check(cudaGetLastError(), "eb_fused_compress");
    unsigned long long total = 0;
    check(cudaMemcpyAsync(&total, lb + ntiles + 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
    check(cudaStreamSynchronize(s), "eb sync");
    return L.payload_at + total;
  }
  double e = abs;
  if (!(abs > 0)) e = rel * static_cast<double>(max_finite_abs(x, n, ws, s));
  if (!(e > 0)) e = wire::bound_floor;  // as eb.cpp
  const wire::EbPlanarLayout L = wire::eb_planar_layout(n, block);
  unsigned char head[wire::eb_planar_header_bytes];
  head[0] = wire::eb_planar_tag;
  const std::uint64_t n64 = n;
  const std::uint32_t blk = static_cast<std::uint32_t>(block), nb32 = static_cast<std::uint32_t>(L.nblocks);
  std::memcpy(head + wire::eb_planar_n_at, &n64, 8);
  std::memcpy(head + wire::eb_planar_e_at, &e, 8);
  std::memcpy(head + wire::eb_planar_block_at, &blk, 4);
  std::memcpy(head + wire::eb_planar_nblocks_at, &nb32, 4);
  check(cudaMemcpyAsync(out, head, sizeof head, cudaMemcpyHostToDevice, s), "eb header");
  if (n == 0) {
    check(cudaStreamSynchronize(s), "eb sync");
    return L.payload_at;
  }
  EbParams P;
  P.e = e;
  P.step = static_cast<float>(2 * e);
  P.inv = 1.0f / P.step;  // host IEEE division, as eb.cpp
  auto* bits = reinterpret_cast<std::uint8_t*>(out + L.widths_at);
  auto* base = reinterpret_cast<float*>(out + L.bases_at);
  auto* psize = static_cast<std::uint64_t*>(ws.get(Slot::block_sizes, L.nblocks * 8));
  auto* poff = static_cast<std::uint64_t*>(ws.get(Slot::block_offsets, L.nblocks * 8));
  const unsigned grid = grid_for_warps(L.nblocks), threads = 32 * warps_per_cta;
  eb_scan_blocks<<<grid, threads, 0, s>>>(x, n, block, L.nblocks, P, bits, base, psize);
  check(cudaGetLastError(), "eb_scan_blocks");
  scan_exclusive(psize, poff, L.nblocks, ws, s);
  const std::size_t smem = warps_per_cta * (block + 1) * 4;
  eb_write<<<grid, threads, smem, s>>>(x, n, block, L.nblocks, P, bits, base, poff, out + L.payload_at);
  check(cudaGetLastError(), "eb_write");
  std::uint64_t last[2];
  check(cudaMemcpyAsync(&last[0], poff + L.nblocks - 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
  check(cudaMemcpyAsync(&last[1], psize + L.nblocks - 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
  check(cudaStreamSynchronize(s), "eb sync");
  return L.payload_at + last[0] + last[1];
}

void eb_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, Workspace& ws, cudaStream_t s) {
  unsigned char head[wire::eb_planar_header_bytes];
  if (in_bytes < sizeof head) throw std::invalid_argument("ferry-comm cuda eb: truncated stream");
  if (!aligned(in, 4)) {  // the planar layout holds floats: decode from an aligned copy
    auto* tmp = static_cast<std::byte*>(ws.get(Slot::staging, in_bytes));
    check(cudaMemcpyAsync(tmp, in, in_bytes, cudaMemcpyDeviceToDevice, s), "eb align");
    eb_decompress(tmp, in_bytes, y, n, ws, s);
    return;
  }
  check(cudaMemcpyAsync(head, in, sizeof head, cudaMemcpyDeviceToHost, s), "eb header");
  check(cudaStreamSynchronize(s), "eb sync");
  std::uint64_t n64;
  double e;
  std::uint32_t blk, nb32;
  std::memcpy(&n64, head + wire::eb_planar_n_at, 8);
  std::memcpy(&e, head + wire::eb_planar_e_at, 8);
  std::memcpy(&blk, head + wire::eb_planar_block_at, 4);
  std::memcpy(&nb32, head + wire::eb_planar_nblocks_at, 4);
  if (head[0] != wire::eb_planar_tag || n64 != n || blk == 0 || nb32 != wire::block_count(n, blk))
    throw std::invalid_argument("ferry-comm cuda eb: not a planar eb stream of " + std::to_string(n) + " elements");
  if (n == 0) return;
  const wire::EbPlanarLayout L = wire::eb_planar_layout(n, blk);
  if (in_bytes < L.payload_at) throw std::invalid_argument("ferry-comm cuda eb: truncated stream");
  const auto* bits = reinterpret_cast<const std::uint8_t*>(in + L.widths_at);
  const auto* base = reinterpret_cast<const float*>(in + L.bases_at);
  if (blk == 128 && fast_paths_enabled() && aligned(in, 4) && aligned(y, 16)) {
    const int K = eb_k(current_tuning().eb_decode_blocks_per_warp);
    const std::size_t tile_blocks = static_cast<std::size_t>(eb_warps) * K;
    const std::size_t ntiles = (L.nblocks + tile_blocks - 1) / tile_blocks;
    auto* lb = static_cast<unsigned long long*>(ws.get(Slot::look_back, (ntiles + 2) * 8));
    check(cudaMemsetAsync(lb, 0, (ntiles + 2) * 8, s), "eb look-back state");
    auto* overrun = reinterpret_cast<unsigned*>(lb + ntiles + 1);
    dispatch_eb(K, [&](auto k) {
      eb_fused_decode<decltype(k)::value><<<static_cast<unsigned>(ntiles), 32 * eb_warps, 0, s>>>(
          in + L.payload_at, n, L.nblocks, static_cast<float>(2 * e), bits, base, in_bytes - L.payload_at, lb, overrun,
          y);
    });
    check(cudaGetLastError(), "eb_fused_decode");
    unsigned bad = 0;
    check(cudaMemcpyAsync(&bad, overrun, 4, cudaMemcpyDeviceToHost, s), "eb check");
    check(cudaStreamSynchronize(s), "eb sync");
    if (bad) throw std::invalid_argument("ferry-comm cuda eb: truncated or corrupt stream (payloads run past its end)");
    return;
  }
  auto* psize = static_cast<std::uint64_t*>(ws.get(Slot::block_sizes, L.nblocks * 8));
  auto* poff = static_cast<std::uint64_t*>(ws.get(Slot::block_offsets, L.nblocks * 8));
  eb_payload_sizes<<<static_cast<unsigned>((L.nblocks + 255) / 256), 256, 0, s>>>(bits, n, blk, L.nblocks, psize);
  check(cudaGetLastError(), "eb_payload_sizes");
  scan_exclusive(psize, poff, L.nblocks, ws, s);
  eb_decode<<<grid_for_warps(L.nblocks), 32 * warps_per_cta, 0, s>>>(in + L.payload_at, n, blk, L.nblocks,
                                                                     static_cast<float>(2 * e), bits, base, poff, y);
  check(cudaGetLastError(), "eb_decode");
}

}  // namespace ferry::comm::cuda
