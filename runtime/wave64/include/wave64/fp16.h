// wave64 runtime: __half, __half2 and bfloat16 on the CPU, bit-exact conversions (round to nearest
// even), arithmetic through float as the GPU headers define it for host code.
#pragma once

#include <cstdint>
#include <cstring>

#include "wave64/vector_types.h"

namespace w64 {

inline std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exp = (x >> 23) & 0xffu;
  std::uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right
  return static_cast<std::uint16_t>(sign | h);
}

// Without branches on the value: a tensor-core GEMM converts every half of its A and B fragments
// at each mma_sync (wmma::mma_wave), and the sample programs' matrices are mostly 0, 1 and 2, so
// a branch on "zero or subnormal" mispredicted about a third of the time (cudaTensorCoreGemm: the
// conversions were most of its CPU time). Exact for every input (all 65536 checked against the
// branching form): a normal or Inf/NaN exponent is rebiased in place; a zero or subnormal m is
// 2^-14 * (1 + m/1024) - 2^-14, an exact float subtraction whose result is a normal float.
inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t em = static_cast<std::uint32_t>(h & 0x7fffu) << 13;  // exponent and mantissa
  const std::uint32_t e = em & 0x0f800000u;
  std::uint32_t x = em + (112u << 23);        // exponent 15 -> 127
  x += e == 0x0f800000u ? (112u << 23) : 0u;  // Inf, NaN: exponent 255
  const std::uint32_t xs = x + (1u << 23);
  float sub;
  std::memcpy(&sub, &xs, sizeof sub);
  sub -= 6.103515625e-05f;  // 2^-14
  std::uint32_t xsub;
  std::memcpy(&xsub, &sub, sizeof xsub);
  x = e == 0 ? xsub : x;
  x |= static_cast<std::uint32_t>(h & 0x8000u) << 16;
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

inline std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>(x >> 16);
}

inline float bf16_bits_to_float(std::uint16_t b) {
  const std::uint32_t x = static_cast<std::uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

}  // namespace w64

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __half {
  unsigned short __x;
  __half() = default;
  constexpr __half(__half_raw r) : __x(r.x) {}
  __half(float f) : __x(::w64::float_to_half_bits(f)) {}
  __half(double d) : __x(::w64::float_to_half_bits(static_cast<float>(d))) {}
  __half(int i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  __half(unsigned int i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  __half(long long i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  __half(unsigned long long i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  __half(short i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  __half(unsigned short i) : __x(::w64::float_to_half_bits(static_cast<float>(i))) {}
  operator float() const { return ::w64::half_bits_to_float(__x); }
  operator __half_raw() const { return __half_raw{__x}; }
  __half& operator=(float f) {
    __x = ::w64::float_to_half_bits(f);
    return *this;
  }
  __half& operator=(double d) { return *this = static_cast<float>(d); }
  __half& operator=(__half_raw r) {
    __x = r.x;
    return *this;
  }
};
using half = __half;

struct __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(__half a, __half b) : x(a), y(b) {}
  __half2(__half2_raw r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};
using half2 = __half2;

inline __half operator+(const __half& a, const __half& b) { return __half(float(a) + float(b)); }
inline __half operator-(const __half& a, const __half& b) { return __half(float(a) - float(b)); }
inline __half operator*(const __half& a, const __half& b) { return __half(float(a) * float(b)); }
inline __half operator/(const __half& a, const __half& b) { return __half(float(a) / float(b)); }
inline __half operator-(const __half& a) { return __half_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)}; }
inline __half operator+(const __half& a) { return a; }
inline __half& operator+=(__half& a, const __half& b) { return a = a + b; }
inline __half& operator-=(__half& a, const __half& b) { return a = a - b; }
inline __half& operator*=(__half& a, const __half& b) { return a = a * b; }
inline __half& operator/=(__half& a, const __half& b) { return a = a / b; }
inline bool operator==(const __half& a, const __half& b) { return float(a) == float(b); }
inline bool operator!=(const __half& a, const __half& b) { return float(a) != float(b); }
inline bool operator<(const __half& a, const __half& b) { return float(a) < float(b); }
inline bool operator<=(const __half& a, const __half& b) { return float(a) <= float(b); }
inline bool operator>(const __half& a, const __half& b) { return float(a) > float(b); }
inline bool operator>=(const __half& a, const __half& b) { return float(a) >= float(b); }
inline __half2 operator+(const __half2& a, const __half2& b) { return __half2(a.x + b.x, a.y + b.y); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __half2(a.x - b.x, a.y - b.y); }
inline __half2 operator*(const __half2& a, const __half2& b) { return __half2(a.x * b.x, a.y * b.y); }
inline __half2 operator/(const __half2& a, const __half2& b) { return __half2(a.x / b.x, a.y / b.y); }
inline __half2& operator+=(__half2& a, const __half2& b) { return a = a + b; }
inline __half2& operator*=(__half2& a, const __half2& b) { return a = a * b; }

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int i) { return __half(static_cast<float>(i)); }
inline int __half2int_rn(__half h) { return static_cast<int>(__builtin_nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(float(h)); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short u) { return __half_raw{u}; }
inline __half __short_as_half(short s) { return __half_raw{static_cast<unsigned short>(s)}; }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hfma(__half a, __half b, __half c) { return __half(__builtin_fmaf(float(a), float(b), float(c))); }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { return __half_raw{static_cast<unsigned short>(a.__x & 0x7fffu)}; }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline __half __hmax(__half a, __half b) { return a > b ? a : b; }
inline __half __hmin(__half a, __half b) { return a < b ? a : b; }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }
inline __half hexp(__half a) { return __half(__builtin_expf(float(a))); }
inline __half hlog(__half a) { return __half(__builtin_logf(float(a))); }
inline __half hsqrt(__half a) { return __half(__builtin_sqrtf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / __builtin_sqrtf(float(a))); }
inline __half hrcp(__half a) { return __half(1.0f / float(a)); }
inline __half hfloor(__half a) { return __half(__builtin_floorf(float(a))); }
inline __half hceil(__half a) { return __half(__builtin_ceilf(float(a))); }
inline __half htrunc(__half a) { return __half(__builtin_truncf(float(a))); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline float2 __half22float2(__half2 h) { return make_float2(float(h.x), float(h.y)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
inline __half2 __hsub2(__half2 a, __half2 b) { return a - b; }
inline __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
inline __half2 __h2div(__half2 a, __half2 b) { return a / b; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __half2 __hneg2(__half2 a) { return __half2(-a.x, -a.y); }
inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
inline __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
inline __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }

// bfloat16: one type under the names of CUDA (__nv_bfloat16), HIP >= 6 (__hip_bfloat16) and
// HIP 5 (hip_bfloat16).
struct __w64_bfloat16 {
  unsigned short __x;
  __w64_bfloat16() = default;
  __w64_bfloat16(float f) : __x(::w64::float_to_bf16_bits(f)) {}
  __w64_bfloat16(double d) : __x(::w64::float_to_bf16_bits(static_cast<float>(d))) {}
  __w64_bfloat16(int i) : __x(::w64::float_to_bf16_bits(static_cast<float>(i))) {}
  operator float() const { return ::w64::bf16_bits_to_float(__x); }
  __w64_bfloat16& operator=(float f) {
    __x = ::w64::float_to_bf16_bits(f);
    return *this;
  }
  static __w64_bfloat16 from_bits(unsigned short b) {
    __w64_bfloat16 r;
    r.__x = b;
    return r;
  }
};
struct __w64_bfloat162 {
  __w64_bfloat16 x, y;
};
inline __w64_bfloat16 operator+(__w64_bfloat16 a, __w64_bfloat16 b) { return __w64_bfloat16(float(a) + float(b)); }
inline __w64_bfloat16 operator-(__w64_bfloat16 a, __w64_bfloat16 b) { return __w64_bfloat16(float(a) - float(b)); }
inline __w64_bfloat16 operator*(__w64_bfloat16 a, __w64_bfloat16 b) { return __w64_bfloat16(float(a) * float(b)); }
inline __w64_bfloat16 operator/(__w64_bfloat16 a, __w64_bfloat16 b) { return __w64_bfloat16(float(a) / float(b)); }
inline __w64_bfloat16& operator+=(__w64_bfloat16& a, __w64_bfloat16 b) { return a = a + b; }
inline bool operator<(__w64_bfloat16 a, __w64_bfloat16 b) { return float(a) < float(b); }
inline bool operator>(__w64_bfloat16 a, __w64_bfloat16 b) { return float(a) > float(b); }
inline bool operator==(__w64_bfloat16 a, __w64_bfloat16 b) { return float(a) == float(b); }
inline __w64_bfloat16 __float2bfloat16(float f) { return __w64_bfloat16(f); }
inline __w64_bfloat16 __float2bfloat16_rn(float f) { return __w64_bfloat16(f); }
inline float __bfloat162float(__w64_bfloat16 b) { return float(b); }
inline unsigned short __bfloat16_as_ushort(__w64_bfloat16 b) { return b.__x; }
inline __w64_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __w64_bfloat16::from_bits(u); }
inline __w64_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__w64_bfloat16(a), __w64_bfloat16(b)}; }
inline float __low2float(__w64_bfloat162 h) { return float(h.x); }
inline float __high2float(__w64_bfloat162 h) { return float(h.y); }
