// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/fp8.h.
// The C conversion API of CUDA's cuda_fp8.h under its own names, which no HIP release has (HIP's
// hip_fp8.h, ROCm 6.2 on, names its API __hip_*, and its e4m3/e5m2 are the FNUZ encodings on
// gfx94x): the storage types __nv_fp8_storage_t, __nv_fp8x2_storage_t, __nv_fp8x4_storage_t, the
// enums __nv_saturation_t (__NV_NOSAT, __NV_SATFINITE) and __nv_fp8_interpretation_t (__NV_E4M3,
// __NV_E5M2), and the twelve __nv_cvt_* functions between fp8 and double, float, half and bfloat16.
// Not provided: the C++ classes __nv_fp8_e4m3, __nv_fp8_e5m2 and their x2/x4 forms (FRY1301).
//
// Encodings are the OCP ones CUDA uses: E4M3 (bias 7, no infinity, NaN 0x7F/0xFF, largest finite
// 448) and E5M2 (bias 15, IEEE-like: infinity 0x7C, NaN 0x7D-0x7F, largest finite 57344).
// Conversions to fp8 round to nearest, ties to even, once, from the exact input value (a double is
// not rounded to float first). Out of range with __NV_SATFINITE: the largest finite value of the
// input's sign; with __NV_NOSAT: E4M3 gives NaN of the input's sign (0x7F/0xFF), E5M2 infinity.
// Infinities follow the same rule. A NaN input gives 0x7F. fp8 to half is exact; a NaN gives the
// canonical half NaN 0x7FFF. In a pair (x2), element x is the low byte. Everything is integer
// arithmetic, the same on the host and on the GPU; tests/e2e/test_compat_headers.py checks every
// code both ways and every rounding boundary against a reference and against CUDA's cuda_fp8.h.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace ferry_compat_fp8 {

__host__ __device__ inline int bit_length(unsigned long long m) { return m ? 64 - __builtin_clzll(m) : 0; }

// The fp8 code of (-1)^sign * m * 2^x, m < 2^53.
__host__ __device__ inline __nv_fp8_storage_t encode(bool sign, unsigned long long m, int x, __nv_saturation_t sat,
                                                     __nv_fp8_interpretation_t interp) {
  const bool e4m3 = interp == __NV_E4M3;
  const int mant_bits = e4m3 ? 3 : 2;
  const int emin = e4m3 ? -6 : -14;                       // exponent of the smallest normal
  const unsigned max_code = e4m3 ? 0x7Eu : 0x7Bu;         // largest finite magnitude
  const unsigned over_code = e4m3 ? 0x7Fu : 0x7Cu;        // NaN (E4M3) or infinity (E5M2)
  const unsigned char s = sign ? 0x80 : 0x00;
  const unsigned char overflow = static_cast<unsigned char>(s | (sat == __NV_SATFINITE ? max_code : over_code));
  if (m == 0) return s;
  const int len = bit_length(m);
  const int e = x + len - 1;  // floor(log2 |value|)
  if (e > 16) return overflow;
  const int eq = e > emin ? e : emin;  // the binade whose quantum applies
  const int shift = x - (eq - mant_bits);  // |value| / quantum = m * 2^shift
  unsigned long long n;
  if (shift >= 0) {
    n = m << shift;
  } else {
    const int r = -shift;
    if (r > len) {
      n = 0;  // below half the smallest quantum
    } else {
      n = m >> r;
      const unsigned long long rem = m & ((1ull << r) - 1), half = 1ull << (r - 1);
      if (rem > half || (rem == half && (n & 1))) ++n;
    }
  }
  const unsigned long long code = (static_cast<unsigned long long>(eq - emin) << mant_bits) + n;
  if (code > max_code) return overflow;
  return static_cast<__nv_fp8_storage_t>(s | code);
}

// IEEE binary formats: the sign, the integer significand and its exponent, or a special value.
struct Unpacked {
  bool sign, nan, inf;
  unsigned long long m;
  int x;
};
__host__ __device__ inline Unpacked unpack(unsigned long long bits, int exp_bits, int frac_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const unsigned long long frac = bits & ((1ull << frac_bits) - 1);
  const int ef = static_cast<int>((bits >> frac_bits) & ((1u << exp_bits) - 1));
  Unpacked u{((bits >> (exp_bits + frac_bits)) & 1) != 0, false, false, 0, 0};
  if (ef == (1 << exp_bits) - 1) {
    u.nan = frac != 0;
    u.inf = frac == 0;
  } else if (ef == 0) {
    u.m = frac;
    u.x = 1 - bias - frac_bits;
  } else {
    u.m = frac | (1ull << frac_bits);
    u.x = ef - bias - frac_bits;
  }
  return u;
}
__host__ __device__ inline __nv_fp8_storage_t from_bits(unsigned long long bits, int exp_bits, int frac_bits,
                                                        __nv_saturation_t sat, __nv_fp8_interpretation_t interp) {
  const Unpacked u = unpack(bits, exp_bits, frac_bits);
  if (u.nan) return 0x7F;
  if (u.inf) {
    const unsigned code = sat == __NV_SATFINITE ? (interp == __NV_E4M3 ? 0x7Eu : 0x7Bu)
                                                : (interp == __NV_E4M3 ? 0x7Fu : 0x7Cu);
    return static_cast<__nv_fp8_storage_t>((u.sign ? 0x80u : 0u) | code);
  }
  return encode(u.sign, u.m, u.x, sat, interp);
}
__host__ __device__ inline unsigned long long double_bits(double d) {
  unsigned long long u;
  __builtin_memcpy(&u, &d, sizeof u);
  return u;
}
__host__ __device__ inline unsigned float_bits(float f) {
  unsigned u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
}
__host__ __device__ inline unsigned short to_half_bits(__nv_fp8_storage_t c, __nv_fp8_interpretation_t interp) {
  const unsigned short sign = (c & 0x80) ? 0x8000 : 0;
  const unsigned mag = c & 0x7Fu;
  if (interp == __NV_E5M2) return mag > 0x7C ? 0x7FFF : static_cast<unsigned short>(c << 8);  // E5M2 is half's top byte
  if (mag == 0x7F) return 0x7FFF;
  const unsigned ef = mag >> 3, f = mag & 7u;
  if (ef != 0) return static_cast<unsigned short>(sign | ((ef + 8u) << 10) | (f << 7));
  if (f == 0) return sign;
  const unsigned p = f >= 4 ? 2u : f >= 2 ? 1u : 0u;  // f = 2^p + r, value f * 2^-9
  return static_cast<unsigned short>(sign | ((p + 6u) << 10) | ((f - (1u << p)) << (10 - p)));
}

}  // namespace ferry_compat_fp8

__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                                     const __nv_fp8_interpretation_t fp8_interpretation) {
  return ferry_compat_fp8::from_bits(ferry_compat_fp8::double_bits(x), 11, 52, saturate, fp8_interpretation);
}
__host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(
    const double2 x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation) |
                                           (__nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                                    const __nv_fp8_interpretation_t fp8_interpretation) {
  return ferry_compat_fp8::from_bits(ferry_compat_fp8::float_bits(x), 8, 23, saturate, fp8_interpretation);
}
__host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(
    const float2 x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation) |
                                           (__nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation) << 8));
}
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(
    const __half_raw x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return ferry_compat_fp8::from_bits(x.x, 5, 10, saturate, fp8_interpretation);
}
__host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(
    const __half2_raw x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return static_cast<__nv_fp8x2_storage_t>(ferry_compat_fp8::from_bits(x.x, 5, 10, saturate, fp8_interpretation) |
                                           (ferry_compat_fp8::from_bits(x.y, 5, 10, saturate, fp8_interpretation)
                                            << 8));
}
// bfloat16 raw values: HIP's __hip_bfloat16_raw (or Ferry's bf16.h for HIP < 6.0), whichever the
// file uses, so this header needs neither: any two-byte type with the bits in .x (.x/.y for pairs).
template <class Bf16Raw>
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(
    const Bf16Raw x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  static_assert(sizeof(x.x) == 2, "a bfloat16 raw value");
  return ferry_compat_fp8::from_bits(x.x, 8, 7, saturate, fp8_interpretation);
}
template <class Bf162Raw>
__host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const Bf162Raw x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  static_assert(sizeof(x.x) == 2 && sizeof(x.y) == 2, "a pair of bfloat16 raw values");
  return static_cast<__nv_fp8x2_storage_t>(ferry_compat_fp8::from_bits(x.x, 8, 7, saturate, fp8_interpretation) |
                                           (ferry_compat_fp8::from_bits(x.y, 8, 7, saturate, fp8_interpretation)
                                            << 8));
}
__host__ __device__ inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw r;
  r.x = ferry_compat_fp8::to_half_bits(x, fp8_interpretation);
  return r;
}
__host__ __device__ inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                                                  const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw r;
  r.x = ferry_compat_fp8::to_half_bits(static_cast<__nv_fp8_storage_t>(x & 0xFF), fp8_interpretation);
  r.y = ferry_compat_fp8::to_half_bits(static_cast<__nv_fp8_storage_t>(x >> 8), fp8_interpretation);
  return r;
}
