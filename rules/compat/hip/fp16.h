// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/fp16.h.
// The half-precision maximum and minimum of CUDA's cuda_fp16.h: __hmax, __hmin, __hmax_nan,
// __hmin_nan on __half, which HIP's hip_fp16.h has from ROCm 5.5 on, for earlier HIP; and their
// __half2 forms __hmax2, __hmin2, __hmax2_nan, __hmin2_nan, which no HIP release has for __half2
// (define FERRY_COMPAT_NO_HMAX2 if yours does).
//
// Semantics follow the CUDA Math API reference: __hmax/__hmin return the other operand when one
// is NaN and the canonical NaN (0x7FFF) when both are; __hmax_nan/__hmin_nan return the
// canonical NaN when either is. +0 orders above -0. The __half2 forms do the same on each half.
// The comparison is done in float, which holds every half exactly.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_version.h>

namespace ferry_compat_fp16 {

__host__ __device__ inline unsigned short bits(__half h) {
  unsigned short u;
  __builtin_memcpy(&u, &h, sizeof u);
  return u;
}
__host__ __device__ inline __half from_bits(unsigned short u) {
  __half h;
  __builtin_memcpy(&h, &u, sizeof h);
  return h;
}
__host__ __device__ inline bool is_nan(__half h) { return (bits(h) & 0x7fffu) > 0x7c00u; }
// a > b, with +0 above -0.
__host__ __device__ inline bool greater(__half a, __half b) {
  const float fa = __half2float(a), fb = __half2float(b);
  if (fa == fb) return (bits(a) & 0x8000u) == 0 && (bits(b) & 0x8000u) != 0;
  return fa > fb;
}
__host__ __device__ inline __half pick(__half a, __half b, bool want_max, bool nan_wins) {
  const bool na = is_nan(a), nb = is_nan(b);
  if (na || nb) {
    if (nan_wins || (na && nb)) return from_bits(0x7fff);
    return na ? b : a;
  }
  return greater(a, b) == want_max ? a : b;
}
__host__ __device__ inline __half2 pick2(__half2 a, __half2 b, bool want_max, bool nan_wins) {
  return __halves2half2(pick(__low2half(a), __low2half(b), want_max, nan_wins),
                        pick(__high2half(a), __high2half(b), want_max, nan_wins));
}

}  // namespace ferry_compat_fp16

#if HIP_VERSION_MAJOR < 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 5)
__host__ __device__ inline __half __hmax(__half a, __half b) { return ferry_compat_fp16::pick(a, b, true, false); }
__host__ __device__ inline __half __hmin(__half a, __half b) { return ferry_compat_fp16::pick(a, b, false, false); }
__host__ __device__ inline __half __hmax_nan(__half a, __half b) {
  return ferry_compat_fp16::pick(a, b, true, true);
}
__host__ __device__ inline __half __hmin_nan(__half a, __half b) {
  return ferry_compat_fp16::pick(a, b, false, true);
}
#endif

#if !defined(FERRY_COMPAT_NO_HMAX2)
__host__ __device__ inline __half2 __hmax2(__half2 a, __half2 b) { return ferry_compat_fp16::pick2(a, b, true, false); }
__host__ __device__ inline __half2 __hmin2(__half2 a, __half2 b) { return ferry_compat_fp16::pick2(a, b, false, false); }
__host__ __device__ inline __half2 __hmax2_nan(__half2 a, __half2 b) {
  return ferry_compat_fp16::pick2(a, b, true, true);
}
__host__ __device__ inline __half2 __hmin2_nan(__half2 a, __half2 b) {
  return ferry_compat_fp16::pick2(a, b, false, true);
}
#endif
