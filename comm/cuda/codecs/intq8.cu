// GPU int8 codec (include/ferry/comm/cuda/codecs.hpp): block quantization with optional fused error
// feedback, writing and reading the CPU codec's stream byte for byte (ferry/comm/codec_wire.hpp, intN).
//
// Two kernel families, the same bytes:
//   general  one warp per codec block, any block size and alignment: scales and sizes (pass 1), a
//            CUB scan for offsets, the stream (pass 2); decoding guesses offsets assuming no raw
//            block and walks serially only from the first raw block on.
//   fast     blocks of 16, 32, 64 or 128, float buffers 16-byte aligned, streams 4-byte aligned:
//            B/4 lanes per codec block, one float4 each, offsets known in advance (every block is
//            4 + B bytes unless raw); a raw block sets a flag and the host rebuilds the stream.
#include <cstring>
#include <stdexcept>
#include <string>

#include "common.cuh"

namespace ferry::comm::cuda {
namespace {

using namespace detail;

constexpr int qmax = wire::intq_qmax(8);  // 127: q + qmax is the stored byte
// As int, the type the kernels' offset arithmetic was written and measured in.
constexpr int tag_bytes = static_cast<int>(wire::intq_tag_bytes);
constexpr int header_bytes = static_cast<int>(wire::intq_header_bytes);

// ---- general kernels ------------------------------------------------------------------------

// Pass 1: per block its scale (or raw marker) and its stream size.
__global__ void intq8_scan_blocks(const float* x, const float* r, std::size_t n, std::size_t block, std::size_t nblocks,
                                  std::uint32_t* tag, std::uint64_t* size) {
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
  fin = __all_sync(full_mask, fin);
  m = warp_max(m);
  if (lane != 0) return;
  const float scale = __fdiv_rn(m, static_cast<float>(qmax));
  // isnormal(scale) for a finite non-negative scale: scale >= FLT_MIN.
  const bool raw = !fin || (m > 0 && !(scale >= wire::float_min));
  tag[b] = raw ? wire::intq_raw_tag : __float_as_uint(scale);
  size[b] = tag_bytes + (raw ? 4 * len : len);
}

// Pass 2: the stream, and with error feedback the new residual and x = y.
__global__ void intq8_write(float* x, float* r, std::size_t n, std::size_t block, std::size_t nblocks,
                            const std::uint32_t* tag, const std::uint64_t* offset, std::byte* out) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  std::byte* p = out + header_bytes + offset[b];
  const std::uint32_t t = tag[b];
  if (lane == 0) store_u32(p, t);
  p += tag_bytes;
  if (t == wire::intq_raw_tag) {
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
    q = q > qmax ? qmax : (q < -qmax ? -qmax : q);
    p[i] = static_cast<std::byte>(q + qmax);
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
  const std::uint64_t off = b * (tag_bytes + block);
  offset[b] = off;
  if (header_bytes + off + tag_bytes <= in_bytes && load_u32(in + header_bytes + off) == wire::intq_raw_tag)
    atomicMin(first_raw, b);
}

// From the first raw block on, block sizes depend on earlier tags: one thread walks them.
__global__ void intq8_walk_offsets(const std::byte* in, std::size_t in_bytes, std::size_t n, std::size_t block,
                                   std::size_t nblocks, std::uint64_t* offset, std::size_t from) {
  std::uint64_t off = offset[from];
  for (std::size_t b = from; b < nblocks; ++b) {
    offset[b] = off;
    const std::size_t len = min(block, n - b * block);
    if (header_bytes + off + tag_bytes > in_bytes) return;  // truncated: the decoder will reject it
    off += tag_bytes + (load_u32(in + header_bytes + off) == wire::intq_raw_tag ? 4 * len : len);
  }
}

__global__ void intq8_decode(const std::byte* in, std::size_t n, std::size_t block, std::size_t nblocks,
                             const std::uint64_t* offset, float* y) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* p = in + header_bytes + offset[b];
  const std::uint32_t t = load_u32(p);
  p += tag_bytes;
  if (t == wire::intq_raw_tag) {
    for (std::size_t i = lane; i < len; i += 32) y[b0 + i] = __uint_as_float(load_u32(p + 4 * i));
    return;
  }
  const float scale = __uint_as_float(t);
  for (std::size_t i = lane; i < len; i += 32)
    y[b0 + i] = __fmul_rn(static_cast<float>(static_cast<int>(p[i]) - qmax), scale);
}

// ---- fast kernels ---------------------------------------------------------------------------

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
__global__ void __launch_bounds__(256)
    intq8_fast_compress(float* x, float* r, std::size_t n, std::size_t nb, std::byte* out, unsigned* raw_seen) {
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
      m = fmaxf(m, __shfl_xor_sync(full_mask, m, o));
      fin &= __shfl_xor_sync(full_mask, fin, o);
    }
    if (b >= nb) continue;
    const float scale = __fdiv_rn(m, static_cast<float>(qmax));
    const bool raw = !fin || (m > 0 && !(scale >= wire::float_min));
    std::byte* p = out + header_bytes + b * (tag_bytes + B);
    if (sub == 0) {
      *reinterpret_cast<std::uint32_t*>(p) = raw ? wire::intq_raw_tag : __float_as_uint(scale);
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
      if (q > qmax || q < -qmax) q = q > qmax ? qmax : -qmax, qf = static_cast<float>(q);
      packed |= static_cast<std::uint32_t>(q + qmax) << (8 * k);
      if (EF) {  // y is needed for the residual even when x is not written back
        y[k] = __fmul_rn(qf, scale);
        const float dd = __fsub_rn(v[u][k], y[k]);
        d[k] = finite(dd) ? dd : 0.0f;
      }
    }
    std::byte* q = p + tag_bytes + 4 * sub;
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
  size[b] = tag_bytes + (load_u32(fast + header_bytes + b * (tag_bytes + block)) == wire::intq_raw_tag ? 4 * len : len);
}
__global__ void intq8_fix_move(const std::byte* fast, const float* x, std::size_t n, std::size_t block, std::size_t nb,
                               const std::uint64_t* offset, std::byte* out) {
  const std::size_t b = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nb) return;
  const std::size_t b0 = b * block, len = min(block, n - b0);
  const std::byte* src = fast + header_bytes + b * (tag_bytes + block);
  std::byte* dst = out + header_bytes + offset[b];
  const std::uint32_t tag = load_u32(src);
  if (lane == 0) store_u32(dst, tag);
  if (tag == wire::intq_raw_tag) {
    for (std::size_t i = lane; i < len; i += 32) store_u32(dst + tag_bytes + 4 * i, __float_as_uint(x[b0 + i]));
  } else {
    for (std::size_t k = lane; k < len; k += 32) dst[tag_bytes + k] = src[tag_bytes + k];
  }
}

// int8 decoding with the fast layout's offsets; flags |= 1 if a block is raw (the offsets are
// then wrong from there on and the host decodes again with the general path), |= 2 if the header
// does not hold n.
template <int G, int U>
__global__ void __launch_bounds__(256)
    intq8_fast_decode(const std::byte* in, std::size_t n, std::size_t nb, float* y, unsigned* flags) {
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
    const std::byte* p = in + header_bytes + b * (tag_bytes + B);
    tag[u] = *reinterpret_cast<const std::uint32_t*>(p);
    cnt[u] = i + 3 < n ? 4 : static_cast<int>(n - i);
    if (cnt[u] == 4) {
      packed[u] = *reinterpret_cast<const std::uint32_t*>(p + tag_bytes + 4 * sub);
    } else {
      for (int k = 0; k < cnt[u]; ++k)
        packed[u] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(p[tag_bytes + 4 * sub + k])) << (8 * k);
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if (!cnt[u]) continue;
    if (tag[u] == wire::intq_raw_tag) {
      atomicOr(flags, 1u);
      continue;
    }
    const std::size_t i = int8_block_of<G, U>(t, u) * B + 4 * static_cast<std::size_t>(sub);
    const float scale = __uint_as_float(tag[u]);
    float v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      v[k] = __fmul_rn(int_to_float_small(static_cast<int>((packed[u] >> (8 * k)) & 0xFF) - qmax), scale);
    store4(y, i, cnt[u], v);
  }
}

// ---- launching ------------------------------------------------------------------------------

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
// Lanes per codec block of the int8 fast kernels (one float4 each), 0 if the block size has none.
int lanes_for(std::size_t block) {
  return block == 16 ? 4 : block == 32 ? 8 : block == 64 ? 16 : block == 128 ? 32 : 0;
}
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
  auto* flag = static_cast<unsigned*>(ws.get(Slot::flag, 8));
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

// ---- entry points ---------------------------------------------------------------------------

std::size_t intq8_max_bytes(std::size_t n, std::size_t block) { return wire::intq_max_bytes(n, block); }

std::size_t intq8_compress(float* x, float* residual, std::size_t n, std::size_t block, std::byte* out,
                           std::size_t out_bytes, Workspace& ws, cudaStream_t s, bool update_x) {
  if (block == 0) block = wire::intq_default_block;
  if (out_bytes < intq8_max_bytes(n, block)) throw std::invalid_argument("ferry-comm cuda intq8: output too small");
  const std::uint64_t header = n;
  check(cudaMemcpyAsync(out, &header, header_bytes, cudaMemcpyHostToDevice, s), "intq8 header");
  if (n == 0) {
    check(cudaStreamSynchronize(s), "intq8 sync");
    return header_bytes;
  }
  const std::size_t nb = (n + block - 1) / block;
  if (fast_paths_enabled() && lanes_for(block) && aligned(x, 16) && aligned(residual, 16) && aligned(out, 4)) {
    const unsigned raw =
        int8_fast_run(nb, block, current_tuning().int8_compress_units, ws, s, "intq8_fast_compress",
                      [&](auto g, auto u, unsigned grid, unsigned* flag) {
                        constexpr int G = decltype(g)::value, U = decltype(u)::value;
                        if (residual && update_x)
                          intq8_fast_compress<G, U, true><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
                        else if (residual)
                          intq8_fast_compress<G, U, true, false><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
                        else intq8_fast_compress<G, U, false><<<grid, 256, 0, s>>>(x, residual, n, nb, out, flag);
                      });
    const std::size_t fast_bytes = header_bytes + nb * tag_bytes + n;
    if (!raw) return fast_bytes;
    // Some block is raw (NaN/Inf or a subnormal scale): move every block to its real offset.
    auto* tmp = static_cast<std::byte*>(ws.get(Slot::staging, fast_bytes));
    check(cudaMemcpyAsync(tmp, out, fast_bytes, cudaMemcpyDeviceToDevice, s), "intq8 fix copy");
    auto* size = static_cast<std::uint64_t*>(ws.get(Slot::block_sizes, nb * 8));
    auto* off = static_cast<std::uint64_t*>(ws.get(Slot::block_offsets, nb * 8));
    intq8_fix_sizes<<<static_cast<unsigned>((nb + 255) / 256), 256, 0, s>>>(tmp, n, block, nb, size);
    check(cudaGetLastError(), "intq8_fix_sizes");
    scan_exclusive(size, off, nb, ws, s);
    intq8_fix_move<<<grid_for_warps(nb), 32 * warps_per_cta, 0, s>>>(tmp, x, n, block, nb, off, out);
    check(cudaGetLastError(), "intq8_fix_move");
    std::uint64_t last[2];
    check(cudaMemcpyAsync(&last[0], off + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
    check(cudaMemcpyAsync(&last[1], size + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
    check(cudaStreamSynchronize(s), "intq8 sync");
    return header_bytes + last[0] + last[1];
  }
  auto* tag = static_cast<std::uint32_t*>(ws.get(Slot::block_tags, nb * 4));
  auto* size = static_cast<std::uint64_t*>(ws.get(Slot::block_sizes, nb * 8));
  auto* off = static_cast<std::uint64_t*>(ws.get(Slot::block_offsets, nb * 8));
  const unsigned grid = grid_for_warps(nb), threads = 32 * warps_per_cta;
  intq8_scan_blocks<<<grid, threads, 0, s>>>(x, residual, n, block, nb, tag, size);
  check(cudaGetLastError(), "intq8_scan_blocks");
  scan_exclusive(size, off, nb, ws, s);
  intq8_write<<<grid, threads, 0, s>>>(x, residual, n, block, nb, tag, off, out);
  check(cudaGetLastError(), "intq8_write");
  std::uint64_t last[2];
  check(cudaMemcpyAsync(&last[0], off + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
  check(cudaMemcpyAsync(&last[1], size + nb - 1, 8, cudaMemcpyDeviceToHost, s), "intq8 size");
  check(cudaStreamSynchronize(s), "intq8 sync");
  return header_bytes + last[0] + last[1];
}

void intq8_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, std::size_t block,
                      Workspace& ws, cudaStream_t s) {
  if (block == 0) block = wire::intq_default_block;
  if (in_bytes < header_bytes) throw std::invalid_argument("ferry-comm cuda intq8: truncated stream");
  if (n > 0 && fast_paths_enabled() && lanes_for(block) && aligned(in, 4) && aligned(y, 16)) {
    // A stream without raw blocks is exactly this long, and its block offsets are known.
    const std::size_t nb = (n + block - 1) / block;
    if (in_bytes == header_bytes + nb * tag_bytes + n) {
      const unsigned bad = int8_fast_run(nb, block, current_tuning().int8_decode_units, ws, s, "intq8_fast_decode",
                                         [&](auto g, auto u, unsigned grid, unsigned* flag) {
                                           intq8_fast_decode<decltype(g)::value, decltype(u)::value>
                                               <<<grid, 256, 0, s>>>(in, n, nb, y, flag);
                                         });
      if (!bad) return;
      // A raw tag in a stream of the no-raw length, or another count: the general path below
      // decodes what is decodable and names the problem.
    }
  }
  std::uint64_t stored = 0;
  check(cudaMemcpyAsync(&stored, in, header_bytes, cudaMemcpyDeviceToHost, s), "intq8 header");
  check(cudaStreamSynchronize(s), "intq8 sync");
  if (stored != n)
    throw std::invalid_argument("ferry-comm cuda intq8: stream holds " + std::to_string(stored) +
                                " elements, caller expects " + std::to_string(n));
  if (n == 0) return;
  const std::size_t nb = (n + block - 1) / block;
  auto* off = static_cast<std::uint64_t*>(ws.get(Slot::block_offsets, nb * 8));
  auto* first = static_cast<unsigned long long*>(ws.get(Slot::flag, 8));
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

}  // namespace ferry::comm::cuda
