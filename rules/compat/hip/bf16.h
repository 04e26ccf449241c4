// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/bf16.h.
// CUDA's bfloat16 API (cuda_bf16.h) under the names HIP 6.0's hip/hip_bf16.h gives it
// (__hip_bfloat16, __hip_bfloat162, __float2bfloat16, __hadd on bfloat16, ...), for HIP before
// 6.0, which only has the hip_bfloat16 class of hip/hip_bfloat16.h. From HIP 6.0 on this header
// includes hip/hip_bf16.h and defines nothing.
//
// Semantics follow the CUDA Math API reference: conversions from float round to nearest even
// unless the name says _rz/_rd/_ru, NaN becomes the canonical 0x7FFF; conversions to integers
// saturate and give 0 for NaN; arithmetic rounds every result to bfloat16 (computed in float, as
// HIP does); __hmax/__hmin return the other operand when one is NaN and order -0 below +0.
// tests/e2e/test_compat_headers.py compares them bit for bit with CUDA's cuda_bf16.h. The types
// are layout-compatible with hip_bfloat16 (one 16-bit word) and convert to and from it, so
// pointers can be cast for rocBLAS/hipBLAS calls that take hip_bfloat16.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#if HIP_VERSION_MAJOR >= 6
#include <hip/hip_bf16.h>
#else
#include <hip/hip_bfloat16.h>
#include <limits>

namespace ferry_compat_bf16 {

enum Round { kNearest, kZero, kDown, kUp };

__host__ __device__ inline unsigned int float_bits(float f) {
  unsigned int u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
}
__host__ __device__ inline float bits_float(unsigned int u) {
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
}

// float -> bfloat16 bits in one of the four rounding modes.
__host__ __device__ inline unsigned short from_float(float f, Round mode) {
  const unsigned int u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;  // NaN
  const unsigned int low = u & 0xffffu;
  const bool negative = (u >> 31) != 0;
  unsigned int hi = u >> 16;
  switch (mode) {
    case kNearest: return static_cast<unsigned short>((u + 0x7fffu + (hi & 1u)) >> 16);
    case kZero: return static_cast<unsigned short>(hi);
    case kDown: return static_cast<unsigned short>(hi + ((negative && low) ? 1u : 0u));
    case kUp: return static_cast<unsigned short>(hi + ((!negative && low) ? 1u : 0u));
  }
  return static_cast<unsigned short>(hi);
}

// double -> float rounded to odd (truncate, then set the last bit when inexact): rounding that
// float to bfloat16 then rounds the double correctly, with no double rounding.
__host__ __device__ inline float to_odd_float(double d) {
  if (d != d) return bits_float(0x7fc00000u);
  float f = static_cast<float>(d);
  if ((f > 0 && static_cast<double>(f) > d) || (f < 0 && static_cast<double>(f) < d)) {
    unsigned int u = float_bits(f);
    u -= 1;  // one step toward zero (also from infinity down to the largest finite float)
    f = bits_float(u);
  }
  if (static_cast<double>(f) != d) f = bits_float(float_bits(f) | 1u);
  return f;
}

__host__ __device__ inline float round_float(float f, Round mode) {
  switch (mode) {
    case kNearest: return __builtin_rintf(f);
    case kZero: return __builtin_truncf(f);
    case kDown: return __builtin_floorf(f);
    case kUp: return __builtin_ceilf(f);
  }
  return f;
}

// bfloat16 (as float) -> integer type T in a rounding mode, saturating to T's range; NaN gives 0.
template <class T>
__host__ __device__ inline T to_integer(float f, Round mode) {
  if (f != f) return 0;
  const double r = round_float(f, mode);
  const double lo = static_cast<double>(std::numeric_limits<T>::min());
  const double past_hi = 2.0 * static_cast<double>(std::numeric_limits<T>::max() / 2 + 1);  // max + 1, exact
  if (r <= lo) return std::numeric_limits<T>::min();
  if (r >= past_hi) return std::numeric_limits<T>::max();
  return static_cast<T>(r);
}

}  // namespace ferry_compat_bf16

struct __hip_bfloat16_raw {
  unsigned short x;
};
struct __hip_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct __hip_bfloat16 {
  unsigned short data;

  __hip_bfloat16() = default;
  __host__ __device__ __hip_bfloat16(float f) : data(ferry_compat_bf16::from_float(f, ferry_compat_bf16::kNearest)) {}
  __host__ __device__ __hip_bfloat16(double d)
      : data(ferry_compat_bf16::from_float(ferry_compat_bf16::to_odd_float(d), ferry_compat_bf16::kNearest)) {}
  __host__ __device__ __hip_bfloat16(int v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(unsigned int v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(short v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(unsigned short v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(long long v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(unsigned long long v) : __hip_bfloat16(static_cast<double>(v)) {}
  __host__ __device__ __hip_bfloat16(const __hip_bfloat16_raw& r) : data(r.x) {}
  __host__ __device__ __hip_bfloat16(const hip_bfloat16& b) : data(b.data) {}

  __host__ __device__ operator float() const { return ferry_compat_bf16::bits_float(static_cast<unsigned int>(data) << 16); }
  __host__ __device__ operator __hip_bfloat16_raw() const { return {data}; }
  __host__ __device__ operator hip_bfloat16() const {
    hip_bfloat16 b;
    b.data = data;
    return b;
  }
};

struct __hip_bfloat162 {
  __hip_bfloat16 x;
  __hip_bfloat16 y;

  __hip_bfloat162() = default;
  __host__ __device__ __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __hip_bfloat162(const __hip_bfloat162_raw& r) {
    x.data = r.x;
    y.data = r.y;
  }
  __host__ __device__ operator __hip_bfloat162_raw() const { return {x.data, y.data}; }
};

// ---- conversions -----------------------------------------------------------------------------
#define FERRY_BF16_FROM_FLOAT_(suffix, mode)                                   \
  __host__ __device__ inline __hip_bfloat16 __float2bfloat16##suffix(float f) { \
    __hip_bfloat16 r;                                                           \
    r.data = ferry_compat_bf16::from_float(f, ferry_compat_bf16::mode);         \
    return r;                                                                   \
  }
FERRY_BF16_FROM_FLOAT_(, kNearest)
FERRY_BF16_FROM_FLOAT_(_rn, kNearest)
FERRY_BF16_FROM_FLOAT_(_rz, kZero)
FERRY_BF16_FROM_FLOAT_(_rd, kDown)
FERRY_BF16_FROM_FLOAT_(_ru, kUp)
#undef FERRY_BF16_FROM_FLOAT_

__host__ __device__ inline __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); }
__host__ __device__ inline float __bfloat162float(__hip_bfloat16 h) { return static_cast<float>(h); }

// Integers -> bfloat16: exact in double (up to 2^53), rounded to odd into float, then rounded
// in the named mode (round to odd keeps the result correct in every mode).
#define FERRY_BF16_FROM_INT_(name, type, suffix, mode)                                                     \
  __host__ __device__ inline __hip_bfloat16 __##name##2bfloat16##suffix(type v) {                          \
    __hip_bfloat16 r;                                                                                      \
    r.data = ferry_compat_bf16::from_float(ferry_compat_bf16::to_odd_float(static_cast<double>(v)),         \
                                           ferry_compat_bf16::mode);                                      \
    return r;                                                                                              \
  }
#define FERRY_BF16_FROM_INT_ALL_(name, type)        \
  FERRY_BF16_FROM_INT_(name, type, _rn, kNearest) \
  FERRY_BF16_FROM_INT_(name, type, _rz, kZero)    \
  FERRY_BF16_FROM_INT_(name, type, _rd, kDown)    \
  FERRY_BF16_FROM_INT_(name, type, _ru, kUp)
FERRY_BF16_FROM_INT_ALL_(int, int)
FERRY_BF16_FROM_INT_ALL_(uint, unsigned int)
FERRY_BF16_FROM_INT_ALL_(short, short)
FERRY_BF16_FROM_INT_ALL_(ushort, unsigned short)
FERRY_BF16_FROM_INT_ALL_(ll, long long)
FERRY_BF16_FROM_INT_ALL_(ull, unsigned long long)
#undef FERRY_BF16_FROM_INT_ALL_
#undef FERRY_BF16_FROM_INT_

#define FERRY_BF16_TO_INT_(name, type, suffix, mode)                                      \
  __host__ __device__ inline type __bfloat162##name##suffix(__hip_bfloat16 h) {           \
    return ferry_compat_bf16::to_integer<type>(static_cast<float>(h), ferry_compat_bf16::mode); \
  }
#define FERRY_BF16_TO_INT_ALL_(name, type)          \
  FERRY_BF16_TO_INT_(name, type, _rn, kNearest)    \
  FERRY_BF16_TO_INT_(name, type, _rz, kZero)       \
  FERRY_BF16_TO_INT_(name, type, _rd, kDown)       \
  FERRY_BF16_TO_INT_(name, type, _ru, kUp)
FERRY_BF16_TO_INT_ALL_(int, int)
FERRY_BF16_TO_INT_ALL_(uint, unsigned int)
FERRY_BF16_TO_INT_ALL_(short, short)
FERRY_BF16_TO_INT_ALL_(ushort, unsigned short)
FERRY_BF16_TO_INT_ALL_(ll, long long)
FERRY_BF16_TO_INT_ALL_(ull, unsigned long long)
#undef FERRY_BF16_TO_INT_ALL_
#undef FERRY_BF16_TO_INT_

__host__ __device__ inline short __bfloat16_as_short(__hip_bfloat16 h) { return static_cast<short>(h.data); }
__host__ __device__ inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 h) { return h.data; }
__host__ __device__ inline __hip_bfloat16 __short_as_bfloat16(short s) {
  __hip_bfloat16 r;
  r.data = static_cast<unsigned short>(s);
  return r;
}
__host__ __device__ inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  __hip_bfloat16 r;
  r.data = u;
  return r;
}

// ---- pairs -------------------------------------------------------------------------------------
__host__ __device__ inline __hip_bfloat162 make_bfloat162(__hip_bfloat16 x, __hip_bfloat16 y) { return {x, y}; }
__host__ __device__ inline __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return {a, b}; }
__host__ __device__ inline __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return {a, a}; }
__host__ __device__ inline __hip_bfloat162 __float2bfloat162_rn(float f) {
  return {__float2bfloat16_rn(f), __float2bfloat16_rn(f)};
}
__host__ __device__ inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return {__float2bfloat16_rn(a), __float2bfloat16_rn(b)};
}
__host__ __device__ inline __hip_bfloat162 __float22bfloat162_rn(float2 f) {
  return {__float2bfloat16_rn(f.x), __float2bfloat16_rn(f.y)};
}
__host__ __device__ inline float2 __bfloat1622float2(__hip_bfloat162 h) {
  return make_float2(static_cast<float>(h.x), static_cast<float>(h.y));
}
__host__ __device__ inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 h) { return h.x; }
__host__ __device__ inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 h) { return h.y; }
__host__ __device__ inline __hip_bfloat162 __low2bfloat162(__hip_bfloat162 h) { return {h.x, h.x}; }
__host__ __device__ inline __hip_bfloat162 __high2bfloat162(__hip_bfloat162 h) { return {h.y, h.y}; }
__host__ __device__ inline __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return {a.x, b.x}; }
__host__ __device__ inline __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return {a.y, b.y}; }
__host__ __device__ inline float __low2float(__hip_bfloat162 h) { return static_cast<float>(h.x); }
__host__ __device__ inline float __high2float(__hip_bfloat162 h) { return static_cast<float>(h.y); }

// ---- arithmetic: in float, every result rounded to bfloat16 ------------------------------------
#define FERRY_BF16_BINARY_(name, expr)                                                          \
  __host__ __device__ inline __hip_bfloat16 name(__hip_bfloat16 a_, __hip_bfloat16 b_) {       \
    const float a = static_cast<float>(a_), b = static_cast<float>(b_);                       \
    return __hip_bfloat16(static_cast<float>(expr));                                           \
  }                                                                                            \
  __host__ __device__ inline __hip_bfloat162 name##2(__hip_bfloat162 x, __hip_bfloat162 y) {   \
    return {name(x.x, y.x), name(x.y, y.y)};                                                   \
  }
FERRY_BF16_BINARY_(__hadd, a + b)
FERRY_BF16_BINARY_(__hsub, a - b)
FERRY_BF16_BINARY_(__hmul, a * b)
FERRY_BF16_BINARY_(__hdiv, a / b)
#undef FERRY_BF16_BINARY_

// Maximum and minimum as CUDA defines them: a NaN operand gives the other one (two NaNs: the
// canonical NaN), and -0 is less than +0.
__host__ __device__ inline __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  const float x = static_cast<float>(a), y = static_cast<float>(b);
  if (x != x) return y != y ? __hip_bfloat16(__builtin_nanf("")) : b;
  if (y != y) return a;
  if (x != y) return x > y ? a : b;
  return (a.data & 0x8000u) ? b : a;
}
__host__ __device__ inline __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  const float x = static_cast<float>(a), y = static_cast<float>(b);
  if (x != x) return y != y ? __hip_bfloat16(__builtin_nanf("")) : b;
  if (y != y) return a;
  if (x != y) return x < y ? a : b;
  return (a.data & 0x8000u) ? a : b;
}
__host__ __device__ inline __hip_bfloat162 __hmax2(__hip_bfloat162 x, __hip_bfloat162 y) {
  return {__hmax(x.x, y.x), __hmax(x.y, y.y)};
}
__host__ __device__ inline __hip_bfloat162 __hmin2(__hip_bfloat162 x, __hip_bfloat162 y) {
  return {__hmin(x.x, y.x), __hmin(x.y, y.y)};
}

__host__ __device__ inline __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __hip_bfloat16(__builtin_fmaf(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)));
}
__host__ __device__ inline __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}
__host__ __device__ inline __hip_bfloat16 __hneg(__hip_bfloat16 a) { return __ushort_as_bfloat16(a.data ^ 0x8000u); }
__host__ __device__ inline __hip_bfloat162 __hneg2(__hip_bfloat162 a) { return {__hneg(a.x), __hneg(a.y)}; }
__host__ __device__ inline __hip_bfloat16 __habs(__hip_bfloat16 a) { return __ushort_as_bfloat16(a.data & 0x7fffu); }
__host__ __device__ inline __hip_bfloat162 __habs2(__hip_bfloat162 a) { return {__habs(a.x), __habs(a.y)}; }

#define FERRY_BF16_COMPARE_(name, op)                                                                   \
  __host__ __device__ inline bool name(__hip_bfloat16 a, __hip_bfloat16 b) {                           \
    return static_cast<float>(a) op static_cast<float>(b);                                             \
  }
FERRY_BF16_COMPARE_(__heq, ==)
FERRY_BF16_COMPARE_(__hne, !=)
FERRY_BF16_COMPARE_(__hlt, <)
FERRY_BF16_COMPARE_(__hle, <=)
FERRY_BF16_COMPARE_(__hgt, >)
FERRY_BF16_COMPARE_(__hge, >=)
#undef FERRY_BF16_COMPARE_
__host__ __device__ inline bool __hisnan(__hip_bfloat16 a) { return (a.data & 0x7fffu) > 0x7f80u; }
__host__ __device__ inline int __hisinf(__hip_bfloat16 a) {
  return (a.data & 0x7fffu) == 0x7f80u ? ((a.data & 0x8000u) ? -1 : 1) : 0;
}

#define FERRY_BF16_OPERATOR_(op, fn)                                                                  \
  __host__ __device__ inline __hip_bfloat16 operator op(__hip_bfloat16 a, __hip_bfloat16 b) { return fn(a, b); } \
  __host__ __device__ inline __hip_bfloat16& operator op##=(__hip_bfloat16& a, __hip_bfloat16 b) {    \
    return a = fn(a, b);                                                                             \
  }                                                                                                  \
  __host__ __device__ inline __hip_bfloat162 operator op(__hip_bfloat162 a, __hip_bfloat162 b) {      \
    return fn##2(a, b);                                                                              \
  }                                                                                                  \
  __host__ __device__ inline __hip_bfloat162& operator op##=(__hip_bfloat162& a, __hip_bfloat162 b) { \
    return a = fn##2(a, b);                                                                          \
  }
FERRY_BF16_OPERATOR_(+, __hadd)
FERRY_BF16_OPERATOR_(-, __hsub)
FERRY_BF16_OPERATOR_(*, __hmul)
FERRY_BF16_OPERATOR_(/, __hdiv)
#undef FERRY_BF16_OPERATOR_
__host__ __device__ inline __hip_bfloat16 operator-(__hip_bfloat16 a) { return __hneg(a); }
__host__ __device__ inline __hip_bfloat162 operator-(__hip_bfloat162 a) { return __hneg2(a); }
#define FERRY_BF16_RELATION_(op, fn) \
  __host__ __device__ inline bool operator op(__hip_bfloat16 a, __hip_bfloat16 b) { return fn(a, b); }
FERRY_BF16_RELATION_(==, __heq)
FERRY_BF16_RELATION_(!=, __hne)
FERRY_BF16_RELATION_(<, __hlt)
FERRY_BF16_RELATION_(<=, __hle)
FERRY_BF16_RELATION_(>, __hgt)
FERRY_BF16_RELATION_(>=, __hge)
#undef FERRY_BF16_RELATION_

// ---- warp shuffles (HIP's legacy forms, which Ferry's warp pass produces) -----------------------
#define FERRY_BF16_SHUFFLE_(name, arg)                                                                  \
  __device__ inline __hip_bfloat16 name(__hip_bfloat16 v, arg, int width = warpSize) {                 \
    return __ushort_as_bfloat16(static_cast<unsigned short>(name(static_cast<int>(v.data), lane, width))); \
  }                                                                                                    \
  __device__ inline __hip_bfloat162 name(__hip_bfloat162 v, arg, int width = warpSize) {               \
    return {name(v.x, lane, width), name(v.y, lane, width)};                                           \
  }
FERRY_BF16_SHUFFLE_(__shfl, int lane)
FERRY_BF16_SHUFFLE_(__shfl_xor, int lane)
FERRY_BF16_SHUFFLE_(__shfl_up, unsigned int lane)
FERRY_BF16_SHUFFLE_(__shfl_down, unsigned int lane)
#undef FERRY_BF16_SHUFFLE_

#endif  // HIP_VERSION_MAJOR
