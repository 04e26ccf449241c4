// Internal: what the GPU codecs (intq8.cu, eb.cu) and the collective helpers (reductions.cu) share.
// The stream formats themselves are in ferry/comm/codec_wire.hpp, shared with the CPU codecs.
//
// Arithmetic rule of every kernel: each float operation that decides a quantized value is written
// with an explicit round-to-nearest intrinsic (__fadd_rn, __fmul_rn, ...) and the library is built
// with -fmad=false, because the CPU codecs are built with -ffp-contract=off and both sides must
// produce the same bits.
//
// Kernel shapes: the general kernels run one warp per codec block, warps_per_cta warps per CTA;
// the fast kernels (int8 blocks of 16..128, eb blocks of 128) move one float4 per lane.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "ferry/comm/codec_wire.hpp"
#include "ferry/comm/cuda/codecs.hpp"

namespace ferry::comm::cuda::detail {

inline constexpr unsigned full_mask = 0xFFFFFFFFu;  // every lane of a warp
inline constexpr int warps_per_cta = 8;             // general kernels: CTAs of 8 warps

// ---- settings (set_fast_paths, set_tuning; kept in common.cu) -----------------------------------
bool fast_paths_enabled();
const Tuning& current_tuning();

// ---- device arithmetic ----------------------------------------------------------------------------

__device__ __forceinline__ float round_even(float v) {  // as bitpack.hpp's round_even
  return __fsub_rn(__fadd_rn(v, wire::round_even_magic), wire::round_even_magic);
}
// round_even(t) for |t| < 2^22 without a float->int conversion: t + 1.5*2^23 lies in [2^23, 2^24),
// where the float's integer value is its mantissa; qf is round_even(t), the return value the same
// as an int.
__device__ __forceinline__ int round_even_int(float t, float& qf) {
  const float tm = __fadd_rn(t, wire::round_even_magic);
  qf = __fsub_rn(tm, wire::round_even_magic);
  return __float_as_int(tm) - 0x4B400000;  // the bits of 1.5 * 2^23
}
// float(q) for |q| < 2^22 without an int->float conversion.
__device__ __forceinline__ float int_to_float_small(int q) {
  return __fsub_rn(__int_as_float(0x4B400000 + q), wire::round_even_magic);
}
__device__ __forceinline__ bool finite(float v) { return isfinite(v); }

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(full_mask, v, o));
  return v;
}
__device__ __forceinline__ float warp_min(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(full_mask, v, o));
  return v;
}

// Error-feedback input x' = x + r, as apply_error_feedback: only finite r is added. NaN + r: x86
// keeps the NaN's payload, the GPU returns the canonical NaN; skipping the add keeps the stream
// bit-identical to the CPU codec's.
__device__ __forceinline__ float ef_input(const float* x, const float* r, std::size_t i) {
  float v = x[i];
  if (r) {
    float ri = r[i];
    if (finite(ri) && !isnan(v)) v = __fadd_rn(v, ri);
  }
  return v;
}

// ---- device memory access -------------------------------------------------------------------------

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

// ---- host helpers ---------------------------------------------------------------------------------

inline unsigned grid_for_warps(std::size_t warps) {
  return static_cast<unsigned>((warps + warps_per_cta - 1) / warps_per_cta);
}
// CTAs for a grid-stride kernel: what the work asks for, at least 1, at most cap.
inline unsigned grid_capped(std::size_t want, std::size_t cap) {
  return static_cast<unsigned>(want < cap ? (want ? want : 1) : cap);
}
inline bool aligned(const void* p, std::size_t a) { return (reinterpret_cast<std::uintptr_t>(p) & (a - 1)) == 0; }

// out = exclusive prefix sum of in[0..n), CUB's temporary storage in Slot::scan_temp.
template <class T>
std::size_t scan_exclusive(const T* in, T* out, std::size_t n, Workspace& ws, cudaStream_t s) {
  std::size_t temp = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, temp, in, out, static_cast<int>(n), s), "scan size");
  check(cub::DeviceScan::ExclusiveSum(ws.get(Slot::scan_temp, temp + 16), temp, in, out, static_cast<int>(n), s),
        "scan");
  return temp;
}

// Queues max finite |x| (as float bits; non-negative floats order as unsigned ints) into *m, which
// it zeroes first; nothing is synchronized (reductions.cu).
void queue_max_finite_abs(const float* x, std::size_t n, unsigned* m, cudaStream_t s);

}  // namespace ferry::comm::cuda::detail
