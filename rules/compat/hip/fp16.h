// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/fp16.h.
// The half-precision maximum and minimum of CUDA's cuda_fp16.h (__hmax, __hmin, __hmax_nan,
// __hmin_nan on __half), which HIP's hip_fp16.h has from ROCm 5.5 on, for earlier HIP.
//
// Semantics follow the CUDA Math API reference: __hmax/__hmin return the other operand when one
// is NaN and the canonical NaN (0x7FFF) when both are; __hmax_nan/__hmin_nan return the
// canonical NaN when either is. +0 orders above -0. The comparison is done in float, which holds
// every half exactly. From HIP 5.5 on this header defines nothing.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_version.h>

#if HIP_VERSION_MAJOR < 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 5)
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

}  // namespace ferry_compat_fp16

__host__ __device__ inline __half __hmax(__half a, __half b) { return ferry_compat_fp16::pick(a, b, true, false); }
__host__ __device__ inline __half __hmin(__half a, __half b) { return ferry_compat_fp16::pick(a, b, false, false); }
__host__ __device__ inline __half __hmax_nan(__half a, __half b) {
  return ferry_compat_fp16::pick(a, b, true, true);
}
__host__ __device__ inline __half __hmin_nan(__half a, __half b) {
  return ferry_compat_fp16::pick(a, b, false, true);
}
#endif
