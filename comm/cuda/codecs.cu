// GPU codecs (see include/ferry/comm/cuda/codecs.hpp). One warp per codec block; every float
// operation that decides a quantized value is written with explicit round-to-nearest intrinsics
// (no FMA contraction) so results match the CPU codecs, which are built with -ffp-contract=off.
#include <cub/device/device_scan.cuh>

#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "ferry/comm/cuda/codecs.hpp"

namespace ferry::comm::cuda {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("ferry-comm cuda: ") + what + ": " + cudaGetErrorString(e));
}

Workspace::~Workspace() {
  for (void* p : ptr_)
    if (p) cudaFree(p);
}

void* Workspace::get(int slot, std::size_t bytes) {
  if (bytes > size_[slot]) {
    if (ptr_[slot]) check(cudaFree(ptr_[slot]), "cudaFree");
    ptr_[slot] = nullptr;
    check(cudaMalloc(&ptr_[slot], bytes), "cudaMalloc workspace");
    size_[slot] = bytes;
  }
  return ptr_[slot];
}

namespace {

constexpr unsigned full = 0xFFFFFFFFu;
constexpr std::uint32_t raw_marker = 0x7FC00001u;  // as codecs/intq.cpp
constexpr std::uint8_t raw_block = 255;             // as codecs/eb.cpp
constexpr int warps_per_cta = 8;

__device__ __forceinline__ float round_even(float v) {  // as bitpack.hpp: (v + 1.5*2^23) - 1.5*2^23
  return __fsub_rn(__fadd_rn(v, 12582912.0f), 12582912.0f);
}
// round_even(t) for |t| < 2^22 without a float->int conversion: t + 1.5*2^23 lies in [2^23, 2^24),
// where the float's integer value is its mantissa; qf is round_even(t), the return value the same
// as an int.
__device__ __forceinline__ int round_even_int(float t, float& qf) {
  const float tm = __fadd_rn(t, 12582912.0f);
  qf = __fsub_rn(tm, 12582912.0f);
  return __float_as_int(tm) - 0x4B400000;
}
// float(q) for |q| < 2^22 without an int->float conversion.
__device__ __forceinline__ float int_to_float_small(int q) { return __fsub_rn(__int_as_float(0x4B400000 + q), 12582912.0f); }
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(full, v, o));
  return v;
}
__device__ __forceinline__ float warp_min(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(full, v, o));
  return v;
}
__device__ __forceinline__ void store_u32(std::byte* p, std::uint32_t v) {  // any alignment
  if ((reinterpret_cast<std::uintptr_t>(p) & 3) == 0) {
    *reinterpret_cast<std::uint32_t*>(p) = v;
  } else {
    for (int k = 0; k < 4; ++k) p[k] = static_cast<std::byte>((v >> (8 * k)) & 0xFF);
  }
}
__device__ __forceinline__ std::uint32_t load_u32(const std::byte* p) {
  if ((reinterpret_cast<std::uintptr_t>(p) & 3) == 0) return *reinterpret_cast<const std::uint32_t*>(p);
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(p[k]) << (8 * k);
  return v;
}
__device__ __forceinline__ bool finite(float v) { return isfinite(v); }

// ---- int8 ---------------------------------------------------------------------------------

__device__ __forceinline__ float ef_input(const float* x, const float* r, std::size_t i) {
  float v = x[i];
  if (r) {
    float ri = r[i];
    // NaN + r: x86 keeps the NaN's payload, the GPU returns the canonical NaN; skipping the add
    // keeps the stream bit-identical to the CPU codec's.
    if (finite(ri) && !isnan(v)) v = __fadd_rn(v, ri);
  }
  return v;
}

// Pass 1: per block its scale (or raw marker) and its stream size.
__global__ void intq8_scan_blocks(const float* x, const float* r, std::size_t n, std::size_t block,
                                  std::size_t nblocks, std::uint32_t* tag, std::uint64_t* size) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  float m = 0.0f;
  bool fin = true;
  for (std::size_t i = lane; i < len; i += 32) {
    float a = fabsf(ef_input(x, r, b0 + i));
    fin &= finite(a);
    m = a > m ? a : m;
  }
  fin = __all_sync(full, fin);
  m = warp_max(m);
  if (lane != 0) return;
  const float scale = __fdiv_rn(m, 127.0f);
  // isnormal(scale) for a finite non-negative scale: scale >= FLT_MIN.
  const bool raw = !fin || (m > 0 && !(scale >= 1.17549435e-38f));
  tag[b] = raw ? raw_marker : __float_as_uint(scale);
  size[b] = 4 + (raw ? 4 * len : len);
}

// Pass 2: the stream, and with error feedback the new residual and x = y.
__global__ void intq8_write(float* x, float* r, std::size_t n, std::size_t block, std::size_t nblocks,
                            const std::uint32_t* tag, const std::uint64_t* offset, std::byte* out) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  std::byte* p = out + 8 + offset[b];
  const std::uint32_t t = tag[b];
  if (lane == 0) store_u32(p, t);
  p += 4;
  if (t == raw_marker) {
    for (std::size_t i = lane; i < len; i += 32) {
      float v = ef_input(x, r, b0 + i);
      store_u32(p + 4 * i, __float_as_uint(v));
      if (r) {  // y = x' exactly: residual 0
        r[b0 + i] = 0.0f;
        x[b0 + i] = v;
      }
    }
    return;
  }
  const float scale = __uint_as_float(t);
  const float inv = scale > 0 ? __frcp_rn(scale) : 0.0f;  // m > 0 <=> scale > 0 here
  for (std::size_t i = lane; i < len; i += 32) {
    float v = ef_input(x, r, b0 + i);
    int q = static_cast<int>(round_even(__fmul_rn(v, inv)));
    q = q > 127 ? 127 : (q < -127 ? -127 : q);
    p[i] = static_cast<std::byte>(q + 127);
    if (r) {
      float y = __fmul_rn(static_cast<float>(q), scale);
      float d = __fsub_rn(v, y);
      r[b0 + i] = finite(d) ? d : 0.0f;
      x[b0 + i] = y;
    }
  }
}

// Decoding: offsets assuming no raw block; the first block whose tag is the raw marker.
__global__ void intq8_guess_offsets(const std::byte* in, std::size_t in_bytes, std::size_t n, std::size_t block,
                                    std::size_t nblocks, std::uint64_t* offset, unsigned long long* first_raw) {
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nblocks) return;
  const std::uint64_t off = b * (4 + block);
  offset[b] = off;
  if (8 + off + 4 <= in_bytes && load_u32(in + 8 + off) == raw_marker) atomicMin(first_raw, b);
}

// From the first raw block on, block sizes depend on earlier tags: one thread walks them.
__global__ void intq8_walk_offsets(const std::byte* in, std::size_t in_bytes, std::size_t n, std::size_t block,
                                   std::size_t nblocks, std::uint64_t* offset, std::size_t from) {
  std::uint64_t off = offset[from];
  for (std::size_t b = from; b < nblocks; ++b) {
    offset[b] = off;
    const std::size_t len = min(block, n - b * block);
    if (8 + off + 4 > in_bytes) return;  // truncated: the decoder will reject it
    off += 4 + (load_u32(in + 8 + off) == raw_marker ? 4 * len : len);
  }
}

__global__ void intq8_decode(const std::byte* in, std::size_t n, std::size_t block, std::size_t nblocks,
                             const std::uint64_t* offset, float* y) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* p = in + 8 + offset[b];
  const std::uint32_t t = load_u32(p);
  p += 4;
  if (t == raw_marker) {
    for (std::size_t i = lane; i < len; i += 32) y[b0 + i] = __uint_as_float(load_u32(p + 4 * i));
    return;
  }
  const float scale = __uint_as_float(t);
  for (std::size_t i = lane; i < len; i += 32)
    y[b0 + i] = __fmul_rn(static_cast<float>(static_cast<int>(p[i]) - 127), scale);
}

unsigned grid_for_warps(std::size_t warps) {
  return static_cast<unsigned>((warps + warps_per_cta - 1) / warps_per_cta);
}

template <class T>
std::size_t scan_exclusive(const T* in, T* out, std::size_t n, Workspace& ws, int slot, cudaStream_t s) {
  std::size_t temp = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, temp, in, out, static_cast<int>(n), s), "scan size");
  check(cub::DeviceScan::ExclusiveSum(ws.get(slot, temp + 16), temp, in, out, static_cast<int>(n), s), "scan");
  return temp;
}

// ---- eb -----------------------------------------------------------------------------------

__global__ void max_finite_abs_kernel(const float* x, std::size_t n, unsigned* out) {
  float m = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float a = fabsf(x[i]);
    if (finite(a) && a > m) m = a;
  }
  m = warp_max(m);
  if ((threadIdx.x & 31) == 0) atomicMax(out, __float_as_uint(m));  // non-negative floats order as uints
}

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
  fin = __all_sync(full, fin);
  mn = warp_min(mn);
  mx = warp_max(mx);
  bool ok = fin && P.step > 0 && finite(P.inv) && (static_cast<double>(mx) - mn) * P.inv < 4.0e6;
  const float base = __double2float_rn(0.5 * (static_cast<double>(mn) + mx));
  std::uint32_t any = 0;
  bool miss = false;
  if (ok) {
    for (std::size_t i = lane; i < len; i += 32) {
      float v = x[b0 + i];
      auto q = static_cast<std::int32_t>(round_even(__fmul_rn(__fsub_rn(v, base), P.inv)));
      float y = __fadd_rn(base, __fmul_rn(static_cast<float>(q), P.step));
      miss |= !(fabs(static_cast<double>(y) - static_cast<double>(v)) <= P.e);
      any |= static_cast<std::uint32_t>((q << 1) ^ (q >> 31));
    }
    for (int o = 16; o > 0; o >>= 1) any |= __shfl_xor_sync(full, any, o);
    ok = !__any_sync(full, miss);
  }
  if (lane != 0) return;
  const unsigned w = 32 - __clz(static_cast<int>(any));
  bits[b] = ok ? static_cast<std::uint8_t>(w) : raw_block;
  base_out[b] = ok ? base : 0.0f;
  psize[b] = ok ? (len * w + 7) / 8 : 4 * len;
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
  if (w == raw_block) {
    for (std::size_t i = lane; i < len; i += 32) store_u32(p + 4 * i, __float_as_uint(x[b0 + i]));
    return;
  }
  if (w == 0) return;
  const std::size_t nbytes = (len * w + 7) / 8;
  for (std::size_t k = lane; k < (nbytes + 3) / 4; k += 32) acc[k] = 0;
  __syncwarp();
  const float base = base_in[b];
  for (std::size_t i = lane; i < len; i += 32) {
    auto q = static_cast<std::int32_t>(round_even(__fmul_rn(__fsub_rn(x[b0 + i], base), P.inv)));
    auto z = static_cast<std::uint64_t>(static_cast<std::uint32_t>((q << 1) ^ (q >> 31)));
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
  psize[b] = w == raw_block ? 4 * len : (len * w + 7) / 8;
}

__global__ void eb_decode(const std::byte* payload, std::size_t n, std::size_t block, std::size_t nblocks,
                          float step, const std::uint8_t* bits, const float* base_in, const std::uint64_t* poff,
                          float* y) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* p = payload + poff[b];
  const unsigned w = bits[b];
  if (w == raw_block) {
    for (std::size_t i = lane; i < len; i += 32) y[b0 + i] = __uint_as_float(load_u32(p + 4 * i));
    return;
  }
  const float base = base_in[b];
  const std::size_t nbytes = (len * w + 7) / 8;
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
    auto q = static_cast<std::int32_t>(z >> 1) ^ -static_cast<std::int32_t>(z & 1);
    y[b0 + i] = __fadd_rn(base, __fmul_rn(static_cast<float>(q), step));
  }
}


// ---- fast paths ---------------------------------------------------------------------------
// The kernels above are general (any block size, any alignment) but move a codec block with one
// warp and scalar loads, which leaves the H200 far below its copy bandwidth. The fast paths below
// serve the common shapes (int8 block 16/32/64/128, eb block 128, 16-byte aligned float buffers):
// one float4 per lane, each input element read once per pass, and stream offsets either known in
// advance (int8: every block is 4 + B bytes unless raw) or found in the same pass by a decoupled
// look-back across tiles (eb). They produce exactly the same bytes as the general kernels.

// Loads up to 4 elements x[i..i+4) (float4 when all four are in range); returns how many.
__device__ __forceinline__ int load4(const float* x, std::size_t i, std::size_t n, float v[4]) {
  if (i + 3 < n) {
    const float4 a = *reinterpret_cast<const float4*>(x + i);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    return 4;
  }
  int c = 0;
  for (int k = 0; k < 4; ++k) {
    v[k] = 0.0f;
    if (i + k < n) v[k] = x[i + k], ++c;
  }
  return c;
}
__device__ __forceinline__ void store4(float* y, std::size_t i, int cnt, const float v[4]) {
  if (cnt == 4) {
    *reinterpret_cast<float4*>(y + i) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
    for (int k = 0; k < cnt; ++k) y[i + k] = v[k];
  }
}

// int8, block B = 4 * G: G lanes per codec block, one float4 each, U blocks per lane group (their
// loads issued together; a warp's u-th blocks are contiguous). Writes the stream as if no block
// were raw (block b at 8 + b * (4 + B)); a raw block gets only its tag there and sets *raw_seen,
// and the host then rebuilds the stream with intq8_fix_*. x (and r) are final either way: a raw
// block's bytes are x itself after this kernel.
template <int G, int U>
__device__ __forceinline__ std::size_t int8_block_of(std::size_t t, int u) {
  constexpr int gpw = 32 / G;  // groups per warp
  return ((t / 32) * U + u) * gpw + (t % 32) / G;
}

template <int G, int U, bool EF, bool WRITE_X = true>
__global__ void __launch_bounds__(256) intq8_fast_compress(float* x, float* r, std::size_t n, std::size_t nb,
                                                           std::byte* out, unsigned* raw_seen) {
  constexpr int B = 4 * G;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int sub = static_cast<int>(t % G);
  if (t == 0) {  // header: u64 n, out is 4-byte aligned
    reinterpret_cast<std::uint32_t*>(out)[0] = static_cast<std::uint32_t>(n);
    reinterpret_cast<std::uint32_t*>(out)[1] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(n) >> 32);
  }
  float v[U][4];
  int cnt[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::size_t b = int8_block_of<G, U>(t, u), i = b * B + 4 * static_cast<std::size_t>(sub);
    cnt[u] = b < nb && i < n ? load4(x, i, n, v[u]) : 0;
    if (!cnt[u]) v[u][0] = v[u][1] = v[u][2] = v[u][3] = 0.0f;
  }
  if (EF) {
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (cnt[u]) {
        const std::size_t i = int8_block_of<G, U>(t, u) * B + 4 * static_cast<std::size_t>(sub);
        float rv[4];
        load4(r, i, n, rv);
#pragma unroll
        for (int k = 0; k < 4; ++k)  // as ef_input
          if (k < cnt[u] && finite(rv[k]) && !isnan(v[u][k])) v[u][k] = __fadd_rn(v[u][k], rv[k]);
      }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const std::size_t b = int8_block_of<G, U>(t, u), i = b * B + 4 * static_cast<std::size_t>(sub);
    float m = 0.0f;
    int fin = 1;
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (k < cnt[u]) {
        const float a = fabsf(v[u][k]);
        fin &= finite(a) ? 1 : 0;
        m = a > m ? a : m;
      }
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {  // groups of G lanes never straddle a warp
      m = fmaxf(m, __shfl_xor_sync(full, m, o));
      fin &= __shfl_xor_sync(full, fin, o);
    }
    if (b >= nb) continue;
    const float scale = __fdiv_rn(m, 127.0f);
    const bool raw = !fin || (m > 0 && !(scale >= 1.17549435e-38f));
    std::byte* p = out + 8 + b * (4 + B);
    if (sub == 0) {
      *reinterpret_cast<std::uint32_t*>(p) = raw ? raw_marker : __float_as_uint(scale);
      if (raw) atomicOr(raw_seen, 1u);
    }
    if (raw) {
      if (EF && cnt[u]) {  // y = x' exactly: residual 0
        const float z[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        store4(x, i, cnt[u], v[u]);
        store4(r, i, cnt[u], z);
      }
      continue;
    }
    if (!cnt[u]) continue;
    const float inv = scale > 0 ? __frcp_rn(scale) : 0.0f;
    std::uint32_t packed = 0;
    float y[4], d[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      float qf;
      int q = round_even_int(__fmul_rn(v[u][k], inv), qf);  // |t| <= 127 (+ rounding) here
      if (q > 127 || q < -127) q = q > 127 ? 127 : -127, qf = static_cast<float>(q);
      packed |= static_cast<std::uint32_t>(q + 127) << (8 * k);
      if (EF) {  // y is needed for the residual even when x is not written back
        y[k] = __fmul_rn(qf, scale);
        const float dd = __fsub_rn(v[u][k], y[k]);
        d[k] = finite(dd) ? dd : 0.0f;
      }
    }
    std::byte* q = p + 4 + 4 * sub;
    if (cnt[u] == 4) {
      *reinterpret_cast<std::uint32_t*>(q) = packed;
    } else {
      for (int k = 0; k < cnt[u]; ++k) q[k] = static_cast<std::byte>((packed >> (8 * k)) & 0xFF);
    }
    if (EF) {
      if (WRITE_X) store4(x, i, cnt[u], y);
      store4(r, i, cnt[u], d);
    }
  }
}

// Rebuilding a stream that has raw blocks, from the fast layout (a copy of it in `fast`).
__global__ void intq8_fix_sizes(const std::byte* fast, std::size_t n, std::size_t block, std::size_t nb,
                                std::uint64_t* size) {
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  const std::size_t len = min(block, n - b * block);
  size[b] = 4 + (load_u32(fast + 8 + b * (4 + block)) == raw_marker ? 4 * len : len);
}
__global__ void intq8_fix_move(const std::byte* fast, const float* x, std::size_t n, std::size_t block, std::size_t nb,
                               const std::uint64_t* offset, std::byte* out) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nb) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* src = fast + 8 + b * (4 + block);
  std::byte* dst = out + 8 + offset[b];
  const std::uint32_t tag = load_u32(src);
  if (lane == 0) store_u32(dst, tag);
  if (tag == raw_marker) {
    for (std::size_t i = lane; i < len; i += 32) store_u32(dst + 4 + 4 * i, __float_as_uint(x[b0 + i]));
  } else {
    for (std::size_t k = lane; k < len; k += 32) dst[4 + k] = src[4 + k];
  }
}

// int8 decoding with the fast layout's offsets; flags |= 1 if a block is raw (the offsets are
// then wrong from there on and the host decodes again with the general path), |= 2 if the header
// does not hold n.
template <int G, int U>
__global__ void __launch_bounds__(256) intq8_fast_decode(const std::byte* in, std::size_t n, std::size_t nb, float* y,
                                                         unsigned* flags) {
  constexpr int B = 4 * G;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int sub = static_cast<int>(t % G);
  if (t == 0) {
    const auto* h = reinterpret_cast<const std::uint32_t*>(in);
    if ((static_cast<std::uint64_t>(h[1]) << 32 | h[0]) != n) atomicOr(flags, 2u);
  }
  std::uint32_t tag[U], packed[U];
  int cnt[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {  // loads first
    const std::size_t b = int8_block_of<G, U>(t, u), i = b * B + 4 * static_cast<std::size_t>(sub);
    cnt[u] = 0;
    tag[u] = 0;
    packed[u] = 0;
    if (b >= nb || i >= n) continue;
    const std::byte* p = in + 8 + b * (4 + B);
    tag[u] = *reinterpret_cast<const std::uint32_t*>(p);
    cnt[u] = i + 3 < n ? 4 : static_cast<int>(n - i);
    if (cnt[u] == 4) {
      packed[u] = *reinterpret_cast<const std::uint32_t*>(p + 4 + 4 * sub);
    } else {
      for (int k = 0; k < cnt[u]; ++k)
        packed[u] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(p[4 + 4 * sub + k])) << (8 * k);
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (!cnt[u]) continue;
    if (tag[u] == raw_marker) {
      atomicOr(flags, 1u);
      continue;
    }
    const std::size_t i = int8_block_of<G, U>(t, u) * B + 4 * static_cast<std::size_t>(sub);
    const float scale = __uint_as_float(tag[u]);
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      v[k] = __fmul_rn(int_to_float_small(static_cast<int>((packed[u] >> (8 * k)) & 0xFF) - 127), scale);
    store4(y, i, cnt[u], v);
  }
}

// Decoupled look-back: tile `tile` publishes its aggregate, walks back over its predecessors 32
// at a time (warp-wide) until one has published an inclusive prefix, and publishes its own.
// Returns the tile's exclusive prefix to every lane. Tiles take their index from an atomic
// counter in launch order, so every predecessor is running or done: the spin always ends.
#define FERRY_LB_AGG (1ull << 62)
#define FERRY_LB_INC (2ull << 62)
#define FERRY_LB_VAL ((1ull << 62) - 1)

__device__ __forceinline__ unsigned long long warp_sum_u64(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(full, v, o);
  return v;
}

// Publishing the aggregate as soon as it is known (before the tile's other work) shortens every
// successor's walk; look_back_walk then finishes the job.
__device__ __forceinline__ void look_back_publish(unsigned long long* state, unsigned tile, unsigned long long agg) {
  atomicExch(&state[tile], (tile == 0 ? FERRY_LB_INC : FERRY_LB_AGG) | agg);
}
__device__ unsigned long long look_back_walk(unsigned long long* state, unsigned tile, unsigned long long agg, int lane) {
  if (tile == 0) return 0;
  unsigned long long excl = 0;
  long long j = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long idx = j - lane;
    unsigned long long s;
    do {
      s = idx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&state[idx]) : FERRY_LB_INC;
    } while (__any_sync(full, (s >> 62) == 0));
    const unsigned inc = __ballot_sync(full, (s >> 62) == 2);
    unsigned long long v = s & FERRY_LB_VAL;
    if (inc) {
      if (lane > __ffs(inc) - 1) v = 0;
      excl += warp_sum_u64(v);
      break;
    }
    excl += warp_sum_u64(v);
    j -= 32;
  }
  if (lane == 0) atomicExch(&state[tile], FERRY_LB_INC | (excl + agg));
  return excl;
}
__device__ unsigned long long look_back(unsigned long long* state, unsigned tile, unsigned long long agg, int lane) {
  if (lane == 0) look_back_publish(state, tile, agg);
  return look_back_walk(state, tile, agg, lane);
}

struct EbDev {  // the bound and its derived step, computed once per call on the device
  double e;
  float step, inv;
  float e_f;  // the largest float <= e: for a float d, d <= e exactly when d <= e_f
};

__global__ void max_finite_abs4(const float* x, std::size_t n, unsigned* out) {
  __shared__ float part[8];
  float m = 0.0f;
  const std::size_t n4 = n / 4, stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t j = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < n4; j += stride) {
    const float4 a = reinterpret_cast<const float4*>(x)[j];
    const float v[4] = {fabsf(a.x), fabsf(a.y), fabsf(a.z), fabsf(a.w)};
    for (float e : v)
      if (finite(e) && e > m) m = e;
  }
  if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) {
    const float a = fabsf(x[4 * n4 + threadIdx.x]);
    if (finite(a) && a > m) m = a;
  }
  m = warp_max(m);  // then one atomic per CTA: same-address atomics serialize
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x < 32) {
    m = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.0f;
    m = warp_max(m);
    if (threadIdx.x == 0) atomicMax(out, __float_as_uint(m));
  }
}

// e = abs, or rel * max finite |x|; FLT_MIN if that is not positive; step = float(2e), inv = 1/step
// (IEEE, as the host computes it for eb.cpp). Writes e into the stream header.
__global__ void eb_params(const unsigned* mbits, double abs, double rel, EbDev* P, std::byte* head, std::uint64_t n,
                          std::uint32_t block, std::uint32_t nb) {
  double e = abs;
  if (!(abs > 0)) e = __dmul_rn(rel, static_cast<double>(__uint_as_float(*mbits)));
  if (!(e > 0)) e = 1.17549435e-38;
  const float step = __double2float_rn(__dmul_rn(2.0, e));
  P->e = e;
  P->e_f = __double2float_rd(e);
  P->step = step;
  P->inv = __fdiv_rn(1.0f, step);
  // header: u8 2 | u64 n | f64 e | u32 block | u32 nb (little-endian, unaligned)
  const auto bits = static_cast<unsigned long long>(__double_as_longlong(e));
  head[0] = static_cast<std::byte>(2);
  for (int k = 0; k < 8; ++k) head[1 + k] = static_cast<std::byte>((n >> (8 * k)) & 0xFF);
  for (int k = 0; k < 8; ++k) head[9 + k] = static_cast<std::byte>((bits >> (8 * k)) & 0xFF);
  for (int k = 0; k < 4; ++k) head[17 + k] = static_cast<std::byte>((block >> (8 * k)) & 0xFF);
  for (int k = 0; k < 4; ++k) head[21 + k] = static_cast<std::byte>((nb >> (8 * k)) & 0xFF);
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
    const unsigned long long u = __shfl_up_sync(full, incl, o);
    if (lane >= o) incl += u;
  }
  agg = __shfl_sync(full, incl, 31);
  return incl - ws;
}

template <int K>
__device__ void eb_tile_offsets(EbTileSizes<K>& T, unsigned long long* state, std::size_t ntiles, unsigned long long* total) {
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
    fin = __all_sync(full, fin);
    const float mn = key_float(__reduce_min_sync(full, kmn)), mx = key_float(__reduce_max_sync(full, kmx));
    bool ok = fin && P.step > 0 && finite(P.inv) && (static_cast<double>(mx) - mn) * P.inv < 4.0e6;
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
          any |= static_cast<std::uint32_t>((q << 1) ^ (q >> 31));
        }
      any = __reduce_or_sync(full, any);
      ok = !__any_sync(full, miss);
    }
    const unsigned w = 32 - __clz(static_cast<int>(any));
    wbits[k] = w;
    okk[k] = ok;
    basek[k] = base;
    if (lane == 0) {
      if (active) {
        bits[b] = ok ? static_cast<std::uint8_t>(w) : raw_block;
        base_out[b] = ok ? base : 0.0f;
      }
      T.sz[warp][k] = !active ? 0 : ok ? (len * w + 7) / 8 : 4 * len;
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
__global__ void __launch_bounds__(32 * eb_warps) eb_fused_compress(const float* x, std::size_t n, std::size_t nb,
                                                                   const EbDev* Pp, std::uint8_t* bits,
                                                                   float* base_out, std::byte* payload,
                                                                   unsigned long long* lb, unsigned long long* total) {
  constexpr int B = 128, tile_blocks = eb_warps * K;
  __shared__ EbTileImage<K> I;
  __shared__ EbTileSizes<K> T;
  const std::size_t ntiles = (nb + tile_blocks - 1) / tile_blocks;
  const unsigned tile = take_tile(lb, T);
  const EbDev P = *Pp;
  if ((static_cast<std::size_t>(tile) + 1) * tile_blocks * B <= n)
    eb_compress_tile<K, true>(x, n, nb, P, bits, base_out, payload, lb, total, ntiles, I, T);
  else
    eb_compress_tile<K, false>(x, n, nb, P, bits, base_out, payload, lb, total, ntiles, I, T);
}

// eb decoding, block 128: payload offsets from the bits array by look-back, one pass. Sets
// *overrun (and writes nothing for that block) where a payload would end past payload_bytes or a
// width is not 0..32 / raw.
template <int K>
__global__ void __launch_bounds__(32 * eb_warps) eb_fused_decode(const std::byte* payload, std::size_t n, std::size_t nb,
                                                                 float step, const std::uint8_t* bits, const float* base_in,
                                                                 std::size_t payload_bytes, unsigned long long* lb,
                                                                 unsigned* overrun, float* y) {
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
    T.sz[warp][lane] = b >= nb ? 0 : w == raw_block ? 4 * len : w > 32 ? 0 : (len * w + 7) / 8;
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
    if (off > payload_bytes || (w > 32 && w != raw_block)) {  // corrupt: read nothing past the end
      if (lane == 0) atomicOr(overrun, 1u);
      continue;
    }
    const std::size_t i = b0 + 4 * static_cast<std::size_t>(lane);
    const int cnt = i >= n ? 0 : (i + 3 < n ? 4 : static_cast<int>(n - i));
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (w == raw_block) {
      for (int j = 0; j < cnt; ++j) v[j] = __uint_as_float(load_u32(p + 4 * (i - b0 + j)));
      store4(y, i, cnt, v);
      continue;
    }
    const float base = base_in[b];
    const std::size_t nbytes = (len * w + 7) / 8;
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
      const auto q = static_cast<std::int32_t>(zz >> 1) ^ -static_cast<std::int32_t>(zz & 1);
      // |q| < 2^22 in a valid stream (the encoder's range test); wider widths take the conversion
      const float qf = w <= 22 ? int_to_float_small(q) : static_cast<float>(q);
      v[j] = __fadd_rn(base, __fmul_rn(qf, step));
    }
    store4(y, i, cnt, v);
    __syncwarp();  // st is reused by the next block
  }
}

struct EbLayout {
  std::size_t nblocks, bits_at, base_at, payload_at;
};
EbLayout eb_layout(std::size_t n, std::size_t block) {
  EbLayout L;
  L.nblocks = (n + block - 1) / block;
  L.bits_at = 1 + 8 + 8 + 4 + 4;
  L.base_at = (L.bits_at + L.nblocks + 3) & ~std::size_t{3};
  L.payload_at = L.base_at + 4 * L.nblocks;
  return L;
}

bool g_fast_paths = true;

template <class F>
void dispatch_int8(int lanes, int units, F&& f) {
  using std::integral_constant;
  auto with_g = [&](auto g) {
    if (units == 2) f(g, integral_constant<int, 2>{});
    else f(g, integral_constant<int, 1>{});
  };
  switch (lanes) {
    case 4: with_g(integral_constant<int, 4>{}); break;
    case 8: with_g(integral_constant<int, 8>{}); break;
    case 16: with_g(integral_constant<int, 16>{}); break;
    default: with_g(integral_constant<int, 32>{}); break;
  }
}
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
bool fast_ok() { return g_fast_paths; }
bool aligned(const void* p, std::size_t a) { return (reinterpret_cast<std::uintptr_t>(p) & (a - 1)) == 0; }
// CTAs for a grid-stride kernel: what the work asks for, at least 1, at most cap.
unsigned grid_capped(std::size_t want, std::size_t cap) {
  return static_cast<unsigned>(want < cap ? (want ? want : 1) : cap);
}
// Queues max finite |x| (as float bits) into *m, which it zeroes first; nothing is synchronized.
void queue_max_finite_abs(const float* x, std::size_t n, unsigned* m, cudaStream_t s) {
  check(cudaMemsetAsync(m, 0, 4, s), "max memset");
  if (n == 0) return;
  if (aligned(x, 16))
    max_finite_abs4<<<grid_capped((n / 4 + 255) / 256, 2048), 256, 0, s>>>(x, n, m);
  else
    max_finite_abs_kernel<<<1024, 256, 0, s>>>(x, n, m);
  check(cudaGetLastError(), "max_finite_abs");
}
// Lanes per codec block of the int8 fast kernels (one float4 each), 0 if the block size has none.
int lanes_for(std::size_t block) {
  return block == 16 ? 4 : block == 32 ? 8 : block == 64 ? 16 : block == 128 ? 32 : 0;
}
Tuning g_tuning;
// CTAs of 256 threads for the int8 fast kernels: a warp covers units * 32 / G blocks.
unsigned int8_grid(std::size_t nb, int lanes, int units) {
  const std::size_t per_warp = static_cast<std::size_t>(units) * (32 / lanes);
  const std::size_t warps = (nb + per_warp - 1) / per_warp;
  return static_cast<unsigned>((warps + 7) / 8);
}

// Runs an int8 fast kernel over nb blocks, `units` blocks per lane group: zeroes the flag word,
// calls launch(G, U, grid, flag) with the grid those units need, and returns the flag word the
// kernel left (synchronizes).
template <class Launch>
unsigned int8_fast_run(std::size_t nb, std::size_t block, int units, Workspace& ws, cudaStream_t s, const char* what,
                       Launch launch) {
  auto* flag = static_cast<unsigned*>(ws.get(3, 8));
  check(cudaMemsetAsync(flag, 0, 4, s), "intq8 flag");
  const unsigned grid = int8_grid(nb, lanes_for(block), units);
  dispatch_int8(lanes_for(block), units, [&](auto g, auto u) { launch(g, u, grid, flag); });
  check(cudaGetLastError(), what);
  unsigned v = 0;
  check(cudaMemcpyAsync(&v, flag, 4, cudaMemcpyDeviceToHost, s), "intq8 flag");
  check(cudaStreamSynchronize(s), "intq8 sync");
  return v;
}

}  // namespace

void set_fast_paths(bool enabled) { g_fast_paths = enabled; }
void set_tuning(const Tuning& t) { g_tuning = t; }
Tuning tuning() { return g_tuning; }

// ---- host entry points ----------------------------------------------------------------------

std::size_t intq8_max_bytes(std::size_t n, std::size_t block) { return 8 + ((n + block - 1) / block) * 4 + 4 * n; }

std::size_t intq8_compress(float* x, float* residual, std::size_t n, std::size_t block, std::byte* out,
                           std::size_t out_bytes, Workspace& ws, cudaStream_t s, bool update_x) {
  if (block == 0) block = 64;
  if (out_bytes < intq8_max_bytes(n, block)) throw std::invalid_argument("ferry-comm cuda intq8: output too small");
  const std::uint64_t header = n;
  check(cudaMemcpyAsync(out, &header, 8, cudaMemcpyHostToDevice, s), "intq8 header");
  if (n == 0) {
    check(cudaStreamSynchronize(s), "intq8 sync");
    return 8;
  }
  const std::size_t nb = (n + block - 1) / block;
  if (fast_ok() && lanes_for(block) && aligned(x, 16) && aligned(residual, 16) && aligned(out, 4)) {
    const unsigned raw = int8_fast_run(nb, block, g_tuning.int8_compress_units, ws, s, "intq8_fast_compress",
                                       [&](auto g, auto u, unsigned grid, unsigned* flag) {
      constexpr int G = decltype(g)::value, U = decltype(u)::value;
      if (residual && update_x)
        intq8_fast_compress<G, U, true><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
      else if (residual)
        intq8_fast_compress<G, U, true, false><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
      else
        intq8_fast_compress<G, U, false><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
    });
    const std::size_t fast_bytes = 8 + nb * 4 + n;
    if (!raw) return fast_bytes;
    // Some block is raw (NaN/Inf or a subnormal scale): move every block to its real offset.
    auto* tmp = static_cast<std::byte*>(ws.get(6, fast_bytes));
    check(cudaMemcpyAsync(tmp, out, fast_bytes, cudaMemcpyDeviceToDevice, s), "intq8 fix copy");
    auto* size = static_cast<std::uint64_t*>(ws.get(1, nb * 8));
    auto* off = static_cast<std::uint64_t*>(ws.get(2, nb * 8));
    intq8_fix_sizes<<<static_cast<unsigned>((nb + 255) / 256), 256, 0, s>>>(tmp, n, block, nb, size);
    check(cudaGetLastError(), "intq8_fix_sizes");
    scan_exclusive(size, off, nb, ws, 5, s);
    intq8_fix_move<<<grid_for_warps(nb), 32 * warps_per_cta, 0, s>>>(tmp, x, n, block, nb, off, out);
    check(cudaGetLastError(), "intq8_fix_move");
    std::uint64_t last[2];
    check(cudaMemcpyAsync(&last[0], off + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
    check(cudaMemcpyAsync(&last[1], size + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
    check(cudaStreamSynchronize(s), "intq8 sync");
    return 8 + last[0] + last[1];
  }
  auto* tag = static_cast<std::uint32_t*>(ws.get(0, nb * 4));
  auto* size = static_cast<std::uint64_t*>(ws.get(1, nb * 8));
  auto* off = static_cast<std::uint64_t*>(ws.get(2, nb * 8));
  const unsigned grid = grid_for_warps(nb), threads = 32 * warps_per_cta;
  intq8_scan_blocks<<<grid, threads, 0, s>>>(x, residual, n, block, nb, tag, size);
  check(cudaGetLastError(), "intq8_scan_blocks");
  scan_exclusive(size, off, nb, ws, 5, s);
  intq8_write<<<grid, threads, 0, s>>>(x, residual, n, block, nb, tag, off, out);
  check(cudaGetLastError(), "intq8_write");
  std::uint64_t last[2];
  check(cudaMemcpyAsync(&last[0], off + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
  check(cudaMemcpyAsync(&last[1], size + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
  check(cudaStreamSynchronize(s), "intq8 sync");
  return 8 + last[0] + last[1];
}

void intq8_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, std::size_t block,
                      Workspace& ws, cudaStream_t s) {
  if (block == 0) block = 64;
  if (in_bytes < 8) throw std::invalid_argument("ferry-comm cuda intq8: truncated stream");
  if (n > 0 && fast_ok() && lanes_for(block) && aligned(in, 4) && aligned(y, 16)) {
    // A stream without raw blocks is exactly this long, and its block offsets are known.
    const std::size_t nb = (n + block - 1) / block;
    if (in_bytes == 8 + nb * 4 + n) {
      const unsigned bad = int8_fast_run(nb, block, g_tuning.int8_decode_units, ws, s, "intq8_fast_decode",
                                         [&](auto g, auto u, unsigned grid, unsigned* flag) {
        intq8_fast_decode<decltype(g)::value, decltype(u)::value><<<grid, 256, 0, s>>>(in, n, nb, y, flag);
      });
      if (!bad) return;
      // A raw tag in a stream of the no-raw length, or another count: the general path below
      // decodes what is decodable and names the problem.
    }
  }
  std::uint64_t stored = 0;
  check(cudaMemcpyAsync(&stored, in, 8, cudaMemcpyDeviceToHost, s), "intq8 header");
  check(cudaStreamSynchronize(s), "intq8 sync");
  if (stored != n)
    throw std::invalid_argument("ferry-comm cuda intq8: stream holds " + std::to_string(stored) + " elements, caller expects " +
                                std::to_string(n));
  if (n == 0) return;
  const std::size_t nb = (n + block - 1) / block;
  auto* off = static_cast<std::uint64_t*>(ws.get(2, nb * 8));
  auto* first = static_cast<unsigned long long*>(ws.get(3, 8));
  const unsigned long long none = ~0ull;
  check(cudaMemcpyAsync(first, &none, 8, cudaMemcpyHostToDevice, s), "intq8 init");
  intq8_guess_offsets<<<static_cast<unsigned>((nb + 255) / 256), 256, 0, s>>>(in, in_bytes, n, block, nb, off, first);
  check(cudaGetLastError(), "intq8_guess_offsets");
  unsigned long long first_raw = none;
  check(cudaMemcpyAsync(&first_raw, first, 8, cudaMemcpyDeviceToHost, s), "intq8 first raw");
  check(cudaStreamSynchronize(s), "intq8 sync");
  if (first_raw != none) {
    intq8_walk_offsets<<<1, 1, 0, s>>>(in, in_bytes, n, block, nb, off, static_cast<std::size_t>(first_raw));
    check(cudaGetLastError(), "intq8_walk_offsets");
  }
  intq8_decode<<<grid_for_warps(nb), 32 * warps_per_cta, 0, s>>>(in, n, block, nb, off, y);
  check(cudaGetLastError(), "intq8_decode");
}

std::size_t eb_max_bytes(std::size_t n, std::size_t block) {
  const EbLayout L = eb_layout(n, block);
  return L.payload_at + 4 * n;
}

std::size_t eb_compress(const float* x, std::size_t n, double abs, double rel, std::size_t block, std::byte* out,
                        std::size_t out_bytes, Workspace& ws, cudaStream_t s) {
  if (block == 0) block = 128;
  if (out_bytes < eb_max_bytes(n, block)) throw std::invalid_argument("ferry-comm cuda eb: output too small");
  if (!aligned(out, 4)) {  // the planar layout stores floats: build it aligned, then move it
    const std::size_t cap = eb_max_bytes(n, block);
    auto* tmp = static_cast<std::byte*>(ws.get(6, cap));
    const std::size_t bytes = eb_compress(x, n, abs, rel, block, tmp, cap, ws, s);
    check(cudaMemcpyAsync(out, tmp, bytes, cudaMemcpyDeviceToDevice, s), "eb move");
    check(cudaStreamSynchronize(s), "eb sync");
    return bytes;
  }
  if (n > 0 && block == 128 && fast_ok() && aligned(x, 16) && aligned(out, 4)) {
    const EbLayout L = eb_layout(n, block);
    auto* m = static_cast<unsigned*>(ws.get(3, 8));
    if (!(abs > 0)) queue_max_finite_abs(x, n, m, s);  // stays on the device for eb_params
    auto* P = static_cast<EbDev*>(ws.get(4, sizeof(EbDev)));
    eb_params<<<1, 1, 0, s>>>(m, abs, rel, P, out, n, 128, static_cast<std::uint32_t>(L.nblocks));  // and the header
    check(cudaGetLastError(), "eb_params");
    const int K = eb_k(g_tuning.eb_compress_blocks_per_warp);
    const std::size_t tile_blocks = static_cast<std::size_t>(eb_warps) * K;
    const std::size_t ntiles = (L.nblocks + tile_blocks - 1) / tile_blocks;
    auto* lb = static_cast<unsigned long long*>(ws.get(7, (ntiles + 2) * 8));
    check(cudaMemsetAsync(lb, 0, (ntiles + 2) * 8, s), "eb look-back state");
    dispatch_eb(K, [&](auto k) {
      eb_fused_compress<decltype(k)::value><<<static_cast<unsigned>(ntiles), 32 * eb_warps, 0, s>>>(
          x, n, L.nblocks, P, reinterpret_cast<std::uint8_t*>(out + L.bits_at), reinterpret_cast<float*>(out + L.base_at),
          out + L.payload_at, lb, lb + ntiles + 1);
    });
    check(cudaGetLastError(), "eb_fused_compress");
    unsigned long long total = 0;
    check(cudaMemcpyAsync(&total, lb + ntiles + 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
    check(cudaStreamSynchronize(s), "eb sync");
    return L.payload_at + total;
  }
  double e = abs;
  if (!(abs > 0)) e = rel * static_cast<double>(max_finite_abs(x, n, ws, s));
  if (!(e > 0)) e = 1.17549435e-38;  // FLT_MIN, as eb.cpp
  const EbLayout L = eb_layout(n, block);
  unsigned char head[25];
  head[0] = 2;
  const std::uint64_t n64 = n;
  const std::uint32_t blk = static_cast<std::uint32_t>(block), nb32 = static_cast<std::uint32_t>(L.nblocks);
  std::memcpy(head + 1, &n64, 8);
  std::memcpy(head + 9, &e, 8);
  std::memcpy(head + 17, &blk, 4);
  std::memcpy(head + 21, &nb32, 4);
  check(cudaMemcpyAsync(out, head, sizeof head, cudaMemcpyHostToDevice, s), "eb header");
  if (n == 0) {
    check(cudaStreamSynchronize(s), "eb sync");
    return L.payload_at;
  }
  EbParams P;
  P.e = e;
  P.step = static_cast<float>(2 * e);
  P.inv = 1.0f / P.step;  // host IEEE division, as eb.cpp
  auto* bits = reinterpret_cast<std::uint8_t*>(out + L.bits_at);
  auto* base = reinterpret_cast<float*>(out + L.base_at);
  auto* psize = static_cast<std::uint64_t*>(ws.get(1, L.nblocks * 8));
  auto* poff = static_cast<std::uint64_t*>(ws.get(2, L.nblocks * 8));
  const unsigned grid = grid_for_warps(L.nblocks), threads = 32 * warps_per_cta;
  eb_scan_blocks<<<grid, threads, 0, s>>>(x, n, block, L.nblocks, P, bits, base, psize);
  check(cudaGetLastError(), "eb_scan_blocks");
  scan_exclusive(psize, poff, L.nblocks, ws, 5, s);
  const std::size_t smem = warps_per_cta * (block + 1) * 4;
  eb_write<<<grid, threads, smem, s>>>(x, n, block, L.nblocks, P, bits, base, poff, out + L.payload_at);
  check(cudaGetLastError(), "eb_write");
  std::uint64_t last[2];
  check(cudaMemcpyAsync(&last[0], poff + L.nblocks - 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
  check(cudaMemcpyAsync(&last[1], psize + L.nblocks - 1, 8, cudaMemcpyDeviceToHost, s), "eb size");
  check(cudaStreamSynchronize(s), "eb sync");
  return L.payload_at + last[0] + last[1];
}

void eb_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, Workspace& ws,
                   cudaStream_t s) {
  unsigned char head[25];
  if (in_bytes < sizeof head) throw std::invalid_argument("ferry-comm cuda eb: truncated stream");
  if (!aligned(in, 4)) {  // the planar layout holds floats: decode from an aligned copy
    auto* tmp = static_cast<std::byte*>(ws.get(6, in_bytes));
    check(cudaMemcpyAsync(tmp, in, in_bytes, cudaMemcpyDeviceToDevice, s), "eb align");
    eb_decompress(tmp, in_bytes, y, n, ws, s);
    return;
  }
  check(cudaMemcpyAsync(head, in, sizeof head, cudaMemcpyDeviceToHost, s), "eb header");
  check(cudaStreamSynchronize(s), "eb sync");
  std::uint64_t n64;
  double e;
  std::uint32_t blk, nb32;
  std::memcpy(&n64, head + 1, 8);
  std::memcpy(&e, head + 9, 8);
  std::memcpy(&blk, head + 17, 4);
  std::memcpy(&nb32, head + 21, 4);
  if (head[0] != 2 || n64 != n || blk == 0 || nb32 != (n + blk - 1) / blk)
    throw std::invalid_argument("ferry-comm cuda eb: not a planar eb stream of " + std::to_string(n) + " elements");
  if (n == 0) return;
  const EbLayout L = eb_layout(n, blk);
  if (in_bytes < L.payload_at) throw std::invalid_argument("ferry-comm cuda eb: truncated stream");
  const auto* bits = reinterpret_cast<const std::uint8_t*>(in + L.bits_at);
  const auto* base = reinterpret_cast<const float*>(in + L.base_at);
  if (blk == 128 && fast_ok() && aligned(in, 4) && aligned(y, 16)) {
    const int K = eb_k(g_tuning.eb_decode_blocks_per_warp);
    const std::size_t tile_blocks = static_cast<std::size_t>(eb_warps) * K;
    const std::size_t ntiles = (L.nblocks + tile_blocks - 1) / tile_blocks;
    auto* lb = static_cast<unsigned long long*>(ws.get(7, (ntiles + 2) * 8));
    check(cudaMemsetAsync(lb, 0, (ntiles + 2) * 8, s), "eb look-back state");
    auto* overrun = reinterpret_cast<unsigned*>(lb + ntiles + 1);
    dispatch_eb(K, [&](auto k) {
      eb_fused_decode<decltype(k)::value><<<static_cast<unsigned>(ntiles), 32 * eb_warps, 0, s>>>(
          in + L.payload_at, n, L.nblocks, static_cast<float>(2 * e), bits, base, in_bytes - L.payload_at, lb, overrun, y);
    });
    check(cudaGetLastError(), "eb_fused_decode");
    unsigned bad = 0;
    check(cudaMemcpyAsync(&bad, overrun, 4, cudaMemcpyDeviceToHost, s), "eb check");
    check(cudaStreamSynchronize(s), "eb sync");
    if (bad) throw std::invalid_argument("ferry-comm cuda eb: truncated or corrupt stream (payloads run past its end)");
    return;
  }
  auto* psize = static_cast<std::uint64_t*>(ws.get(1, L.nblocks * 8));
  auto* poff = static_cast<std::uint64_t*>(ws.get(2, L.nblocks * 8));
  eb_payload_sizes<<<static_cast<unsigned>((L.nblocks + 255) / 256), 256, 0, s>>>(bits, n, blk, L.nblocks, psize);
  check(cudaGetLastError(), "eb_payload_sizes");
  scan_exclusive(psize, poff, L.nblocks, ws, 5, s);
  eb_decode<<<grid_for_warps(L.nblocks), 32 * warps_per_cta, 0, s>>>(in + L.payload_at, n, blk, L.nblocks,
                                                                     static_cast<float>(2 * e), bits, base, poff, y);
  check(cudaGetLastError(), "eb_decode");
}

// ---- helpers of the device collectives ------------------------------------------------------

namespace {
__global__ void add_into_kernel(float* acc, const float* x, std::size_t n) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    acc[i] = __fadd_rn(acc[i], x[i]);
}
__global__ void absorb_kernel(float* x, float* r, std::size_t n) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    x[i] = ef_input(x, r, i);
    r[i] = 0.0f;
  }
}
unsigned grid_stride_blocks(std::size_t n) { return grid_capped((n + 255) / 256, 4096); }
}  // namespace

float max_finite_abs(const float* x, std::size_t n, Workspace& ws, cudaStream_t s) {
  if (n == 0) return 0.0f;
  auto* m = static_cast<unsigned*>(ws.get(3, 8));
  queue_max_finite_abs(x, n, m, s);
  unsigned mb = 0;
  check(cudaMemcpyAsync(&mb, m, 4, cudaMemcpyDeviceToHost, s), "max copy");
  check(cudaStreamSynchronize(s), "max sync");
  float mf;
  std::memcpy(&mf, &mb, 4);
  return mf;
}

void add_into(float* acc, const float* x, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  add_into_kernel<<<grid_stride_blocks(n), 256, 0, s>>>(acc, x, n);
  check(cudaGetLastError(), "add_into");
}

void absorb_residual(float* x, float* r, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  absorb_kernel<<<grid_stride_blocks(n), 256, 0, s>>>(x, r, n);
  check(cudaGetLastError(), "absorb_residual");
}

}  // namespace ferry::comm::cuda
