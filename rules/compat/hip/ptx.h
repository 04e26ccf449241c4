// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/ptx.h.
// The PTX instructions inline assembly used that HIP has no builtin with exactly their semantics
// for: bfe (bit field extract) and bfi (bit field insert), as the PTX ISA defines them. HIP's
// __bitextract_u32 / __bitinsert_u32 take the position and length modulo 32 (PTX: modulo 256,
// clamped at the width), and have no signed extract. Also includes hip_fp16.h, for the fp16
// conversions (cvt.rn.f16.f32) Ferry writes with HIP's own functions.
//
// bfe.{u32,s32,u64,s64} d, a, pos, len: pos and len are taken modulo 256; the len bits of a from
// pos (bits past the top of a read as the sign bit: 0 for unsigned) are d's low bits, the rest of d
// is the sign of the field (the bit at min(pos + len - 1, top) for signed types, 0 for unsigned).
// len == 0 gives 0.
// bfi.{b32,b64} d, a, b, pos, len: d is b with its bits from pos on (at most len of them, none past
// the top) replaced by the low bits of a; len == 0 or pos past the top gives b.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

namespace ferry_compat_ptx {

template <class U>
__device__ inline U low_mask(unsigned n) {
  return n >= sizeof(U) * 8 ? ~U(0) : (U(1) << n) - 1;
}

template <class U, bool Signed>
__device__ inline U bfe(U a, unsigned pos, unsigned len) {
  constexpr unsigned kBits = sizeof(U) * 8;
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0) return 0;
  U sign = 0;
  if (Signed) {
    const unsigned top = pos + len - 1 < kBits - 1 ? pos + len - 1 : kBits - 1;
    sign = (a >> top) & 1u;
  }
  const unsigned n = pos >= kBits ? 0 : (len < kBits - pos ? len : kBits - pos);
  const U field = pos >= kBits ? U(0) : (a >> pos);
  const U m = low_mask<U>(n);
  return (field & m) | (sign ? ~m : U(0));
}

template <class U>
__device__ inline U bfi(U a, U b, unsigned pos, unsigned len) {
  constexpr unsigned kBits = sizeof(U) * 8;
  pos &= 0xffu;
  len &= 0xffu;
  if (len == 0 || pos >= kBits) return b;
  const unsigned n = len < kBits - pos ? len : kBits - pos;
  const U m = low_mask<U>(n) << pos;
  return (b & ~m) | ((a << pos) & m);
}

}  // namespace ferry_compat_ptx

__device__ inline unsigned int ferry_ptx_bfe_u32(unsigned int a, unsigned int pos, unsigned int len) {
  return ferry_compat_ptx::bfe<unsigned int, false>(a, pos, len);
}
__device__ inline int ferry_ptx_bfe_s32(int a, unsigned int pos, unsigned int len) {
  return static_cast<int>(ferry_compat_ptx::bfe<unsigned int, true>(static_cast<unsigned int>(a), pos, len));
}
__device__ inline unsigned long long ferry_ptx_bfe_u64(unsigned long long a, unsigned int pos, unsigned int len) {
  return ferry_compat_ptx::bfe<unsigned long long, false>(a, pos, len);
}
__device__ inline long long ferry_ptx_bfe_s64(long long a, unsigned int pos, unsigned int len) {
  return static_cast<long long>(
      ferry_compat_ptx::bfe<unsigned long long, true>(static_cast<unsigned long long>(a), pos, len));
}
__device__ inline unsigned int ferry_ptx_bfi_b32(unsigned int a, unsigned int b, unsigned int pos, unsigned int len) {
  return ferry_compat_ptx::bfi<unsigned int>(a, b, pos, len);
}
__device__ inline unsigned long long ferry_ptx_bfi_b64(unsigned long long a, unsigned long long b, unsigned int pos,
                                                       unsigned int len) {
  return ferry_compat_ptx::bfi<unsigned long long>(a, b, pos, len);
}
