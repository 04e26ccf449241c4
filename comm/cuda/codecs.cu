// GPU codecs (see include/ferry/comm/cuda/codecs.hpp). One warp per codec block; every float
// operation that decides a quantized value is written with explicit round-to-nearest intrinsics
// (no FMA contraction) so results match the CPU codecs, which are built with -ffp-contract=off.
#include <cub/device/device_scan.cuh>

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

}  // namespace

// ---- host entry points ----------------------------------------------------------------------

std::size_t intq8_max_bytes(std::size_t n, std::size_t block) { return 8 + ((n + block - 1) / block) * 4 + 4 * n; }

std::size_t intq8_compress(float* x, float* residual, std::size_t n, std::size_t block, std::byte* out,
                           std::size_t out_bytes, Workspace& ws, cudaStream_t s) {
  if (block == 0) block = 64;
  if (out_bytes < intq8_max_bytes(n, block)) throw std::invalid_argument("ferry-comm cuda intq8: output too small");
  const std::uint64_t header = n;
  check(cudaMemcpyAsync(out, &header, 8, cudaMemcpyHostToDevice, s), "intq8 header");
  if (n == 0) {
    check(cudaStreamSynchronize(s), "intq8 sync");
    return 8;
  }
  const std::size_t nb = (n + block - 1) / block;
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
  double e = abs;
  if (!(abs > 0)) {
    auto* m = static_cast<unsigned*>(ws.get(3, 8));
    check(cudaMemsetAsync(m, 0, 4, s), "eb max");
    if (n > 0) {
      max_finite_abs_kernel<<<1024, 256, 0, s>>>(x, n, m);
      check(cudaGetLastError(), "max_finite_abs_kernel");
    }
    unsigned mb = 0;
    check(cudaMemcpyAsync(&mb, m, 4, cudaMemcpyDeviceToHost, s), "eb max");
    check(cudaStreamSynchronize(s), "eb sync");
    float mf;
    std::memcpy(&mf, &mb, 4);
    e = rel * static_cast<double>(mf);
  }
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
  const auto* bits = reinterpret_cast<const std::uint8_t*>(in + L.bits_at);
  const auto* base = reinterpret_cast<const float*>(in + L.base_at);
  auto* psize = static_cast<std::uint64_t*>(ws.get(1, L.nblocks * 8));
  auto* poff = static_cast<std::uint64_t*>(ws.get(2, L.nblocks * 8));
  eb_payload_sizes<<<static_cast<unsigned>((L.nblocks + 255) / 256), 256, 0, s>>>(bits, n, blk, L.nblocks, psize);
  check(cudaGetLastError(), "eb_payload_sizes");
  scan_exclusive(psize, poff, L.nblocks, ws, 5, s);
  eb_decode<<<grid_for_warps(L.nblocks), 32 * warps_per_cta, 0, s>>>(in + L.payload_at, n, blk, L.nblocks,
                                                                     static_cast<float>(2 * e), bits, base, poff, y);
  check(cudaGetLastError(), "eb_decode");
}

}  // namespace ferry::comm::cuda
