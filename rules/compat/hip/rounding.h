// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/rounding.h.
// CUDA's directed-rounding arithmetic intrinsics: __fadd_rd/_ru/_rz, __fsub_*, __fmul_*,
// __fdiv_*, __frcp_*, __fsqrt_*, __fmaf_* on float and __dadd_*, __dsub_*, __dmul_*, __ddiv_*,
// __drcp_*, __dsqrt_* on double. HIP declares them only when OCML_BASIC_ROUNDED_OPERATIONS is
// defined, and then calls __ocml_*_rtn/rtp/rtz functions that the device libraries of some
// releases (Debian's HIP 5.2) do not have: without this header a port of interval arithmetic
// does not compile, and with a round-to-nearest stand-in it would compute wrong bounds.
//
// No rounding mode is switched. Each function computes the round-to-nearest result r (the
// hardware's correctly rounded +, *, /, sqrt, fma), then the sign of (exact - r) exactly, and
// steps r to its neighbour where the direction asks for it:
//   add/sub   TwoSum (float in float, double in double): s + e equals a + b exactly;
//   float mul, div, sqrt, rcp, fma   in double: a float product is exact there, and one fma
//             gives the remainder a - r*b, a - r*r, or the TwoSum residual, rounded once: its
//             sign is the exact sign;
//   double mul, div, sqrt, rcp   on the operands' significands (frexp), so that the remainder
//             never underflows, with r scaled by the same power of two (exact).
// A candidate that is not the nearest value (a device sqrt within a few ulps) is walked to the
// right neighbour, so the results are IEEE 754's directed roundings whatever r was, as long as
// the code is not compiled with -ffast-math or flush-to-zero of denormals (which change what
// the hardware's own operations give). Signed zeros follow IEEE 754: an exact zero sum rounds
// to -0 downwards unless both addends are +0; overflow gives the largest finite value where
// the direction points back to zero. The double fma (__fma_rd/_ru/_rz) is not provided.
//
// Every function is __host__ __device__, so host code and Ferry's CPU wave64 runtime can run
// them too. Where HIP's own declarations are on (OCML_BASIC_ROUNDED_OPERATIONS defined before
// this header) or FERRY_COMPAT_NO_ROUNDING is defined, this header defines nothing.
#pragma once
#include <hip/hip_runtime.h>

#include <float.h>
#include <math.h>

#if !defined(OCML_BASIC_ROUNDED_OPERATIONS) && !defined(FERRY_COMPAT_NO_ROUNDING)

namespace ferry_compat_rounding {

enum class Dir { Down, Up, Zero };

__host__ __device__ inline float toward(float x, float to) { return nextafterf(x, to); }
__host__ __device__ inline double toward(double x, double to) { return nextafter(x, to); }
template <class T>
__host__ __device__ inline T largest() {
  return sizeof(T) == sizeof(float) ? static_cast<T>(FLT_MAX) : static_cast<T>(DBL_MAX);
}
template <class T>
__host__ __device__ inline T infinity() {
  return static_cast<T>(HUGE_VAL);
}

// Rounding towards zero is rounding down for a non-negative exact value, up for a negative one.
__host__ __device__ inline Dir resolve(Dir d, bool exact_nonneg) {
  return d != Dir::Zero ? d : (exact_nonneg ? Dir::Down : Dir::Up);
}

// One step from the nearest value r, knowing only the sign of (exact - r): for add, sub, fma.
template <class T>
__host__ __device__ inline T step(T r, int residual_sign, Dir d) {
  if (residual_sign == 0) return r;
  d = resolve(d, r > 0 || (r == 0 && residual_sign > 0));
  if (d == Dir::Down && residual_sign < 0) return toward(r, -infinity<T>());
  if (d == Dir::Up && residual_sign > 0) return toward(r, infinity<T>());
  return r;
}

// A finite exact value whose nearest value overflowed: its magnitude is above the largest finite.
template <class T>
__host__ __device__ inline T overflow(T r, Dir d) {
  const bool pos = r > 0;
  d = resolve(d, pos);
  if (pos) return d == Dir::Up ? r : largest<T>();
  return d == Dir::Down ? r : -largest<T>();
}

// From a candidate r near the exact value to the directed rounding of it; residual(f) has the
// sign of (exact - f) for any finite f near r (NaN for an infinite f).
template <class T, class Residual>
__host__ __device__ inline T walk(T r, Residual residual, Dir d, bool exact_nonneg) {
  d = resolve(d, exact_nonneg);
  if (isinf(r)) r = r > 0 ? largest<T>() : -largest<T>();  // the exact value is finite here
  if (d == Dir::Down) {
    while (residual(r) < 0) r = toward(r, -infinity<T>());
    for (;;) {
      const T n = toward(r, infinity<T>());
      if (!(residual(n) >= 0)) break;
      r = n;
    }
  } else {
    while (residual(r) > 0) r = toward(r, infinity<T>());
    for (;;) {
      const T n = toward(r, -infinity<T>());
      if (!(residual(n) <= 0)) break;
      r = n;
    }
  }
  return r;
}

template <class T>
__host__ __device__ inline int sign_of(T x) {
  return (x > 0) - (x < 0);
}

// An exact zero sum: -0 downwards unless both addends are +0; the nearest value's zero otherwise.
template <class T>
__host__ __device__ inline T zero_sum(T r, T x, T y, Dir d) {
  if (d != Dir::Down) return r;
  return (x == 0 && y == 0 && !signbit(x) && !signbit(y)) ? static_cast<T>(0) : -static_cast<T>(0);
}

template <class T>
__host__ __device__ inline T add(T a, T b, Dir d) {
  const T s = a + b;
  if (isnan(s)) return s;
  if (isinf(s)) return isfinite(a) && isfinite(b) ? overflow(s, d) : s;
  if (s == 0) return zero_sum(s, a, b, d);  // a sum that rounds to zero is exact
  const T bb = s - a;
  const T e = (a - (s - bb)) + (b - bb);  // TwoSum: s + e == a + b exactly
  return step(s, sign_of(e), d);
}

// ---- float: remainders in double ------------------------------------------------------------
__host__ __device__ inline float fmul(float a, float b, Dir d) {
  const float r = a * b;
  if (isnan(r) || a == 0 || b == 0 || isinf(a) || isinf(b)) return r;
  const double x = a, y = b;
  return walk(r, [&](float f) { return fma(x, y, -static_cast<double>(f)); }, d, signbit(a) == signbit(b));
}

__host__ __device__ inline float fdiv(float a, float b, Dir d) {
  const float r = a / b;
  if (isnan(r) || a == 0 || b == 0 || isinf(a) || isinf(b)) return r;
  const double x = a, y = b;
  const double sb = b > 0 ? 1.0 : -1.0;
  return walk(r, [&](float f) { return sb * fma(-static_cast<double>(f), y, x); }, d, signbit(a) == signbit(b));
}

__host__ __device__ inline float fsqrt(float a, Dir d) {
  const float r = sqrtf(a);
  if (isnan(r) || a == 0 || isinf(a)) return r;
  const double x = a;
  return walk(r, [&](float f) { return fma(-static_cast<double>(f), static_cast<double>(f), x); }, d, true);
}

__host__ __device__ inline float ffma(float a, float b, float c, Dir d) {
  const float r = fmaf(a, b, c);
  if (isnan(r)) return r;
  if (isinf(r)) return isfinite(a) && isfinite(b) && isfinite(c) ? overflow(r, d) : r;
  const double p = static_cast<double>(a) * static_cast<double>(b);  // exact
  const double q = c;
  const double s = p + q;
  const double bb = s - p;
  const double e = (p - (s - bb)) + (q - bb);  // s + e == a*b + c exactly
  if (s == 0 && e == 0) return zero_sum(r, static_cast<float>(p), c, d);
  // s - r is exact (r is s rounded to float, or 0); one rounding keeps the sign.
  return step(r, sign_of((s - static_cast<double>(r)) + e), d);
}

// ---- double: remainders on the significands ---------------------------------------------------
__host__ __device__ inline double dmul(double a, double b, Dir d) {
  const double r = a * b;
  if (isnan(r) || a == 0 || b == 0 || isinf(a) || isinf(b)) return r;
  int ea = 0, eb = 0;
  const double ma = frexp(a, &ea), mb = frexp(b, &eb);
  const int e = ea + eb;
  return walk(r, [&](double f) { return fma(ma, mb, -ldexp(f, -e)); }, d, signbit(a) == signbit(b));
}

__host__ __device__ inline double ddiv(double a, double b, Dir d) {
  const double r = a / b;
  if (isnan(r) || a == 0 || b == 0 || isinf(a) || isinf(b)) return r;
  int ea = 0, eb = 0;
  const double ma = frexp(a, &ea), mb = frexp(b, &eb);
  const int e = ea - eb;
  const double sb = b > 0 ? 1.0 : -1.0;
  return walk(r, [&](double f) { return sb * fma(-ldexp(f, -e), mb, ma); }, d, signbit(a) == signbit(b));
}

__host__ __device__ inline double dsqrt(double a, Dir d) {
  const double r = sqrt(a);
  if (isnan(r) || a == 0 || isinf(a)) return r;
  int ea = 0;
  double ma = frexp(a, &ea);
  if (ea & 1) {  // an even exponent halves exactly
    ma *= 2;
    ea -= 1;
  }
  const int e = ea / 2;
  return walk(
      r,
      [&](double f) {
        const double fs = ldexp(f, -e);
        return fma(-fs, fs, ma);
      },
      d, true);
}

}  // namespace ferry_compat_rounding

#define FERRY_COMPAT_ROUNDING_OPS(SFX, DIR)                                                                   \
  __host__ __device__ inline float __fadd_##SFX(float a, float b) {                                        \
    return ferry_compat_rounding::add(a, b, ferry_compat_rounding::Dir::DIR);                               \
  }                                                                                                          \
  __host__ __device__ inline float __fsub_##SFX(float a, float b) {                                        \
    return ferry_compat_rounding::add(a, -b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline float __fmul_##SFX(float a, float b) {                                        \
    return ferry_compat_rounding::fmul(a, b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline float __fdiv_##SFX(float a, float b) {                                        \
    return ferry_compat_rounding::fdiv(a, b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline float __frcp_##SFX(float a) {                                                  \
    return ferry_compat_rounding::fdiv(1.0f, a, ferry_compat_rounding::Dir::DIR);                           \
  }                                                                                                          \
  __host__ __device__ inline float __fsqrt_##SFX(float a) {                                                 \
    return ferry_compat_rounding::fsqrt(a, ferry_compat_rounding::Dir::DIR);                                \
  }                                                                                                          \
  __host__ __device__ inline float __fmaf_##SFX(float a, float b, float c) {                               \
    return ferry_compat_rounding::ffma(a, b, c, ferry_compat_rounding::Dir::DIR);                           \
  }                                                                                                          \
  __host__ __device__ inline double __dadd_##SFX(double a, double b) {                                     \
    return ferry_compat_rounding::add(a, b, ferry_compat_rounding::Dir::DIR);                               \
  }                                                                                                          \
  __host__ __device__ inline double __dsub_##SFX(double a, double b) {                                     \
    return ferry_compat_rounding::add(a, -b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline double __dmul_##SFX(double a, double b) {                                     \
    return ferry_compat_rounding::dmul(a, b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline double __ddiv_##SFX(double a, double b) {                                     \
    return ferry_compat_rounding::ddiv(a, b, ferry_compat_rounding::Dir::DIR);                              \
  }                                                                                                          \
  __host__ __device__ inline double __drcp_##SFX(double a) {                                                \
    return ferry_compat_rounding::ddiv(1.0, a, ferry_compat_rounding::Dir::DIR);                            \
  }                                                                                                          \
  __host__ __device__ inline double __dsqrt_##SFX(double a) {                                               \
    return ferry_compat_rounding::dsqrt(a, ferry_compat_rounding::Dir::DIR);                                \
  }

FERRY_COMPAT_ROUNDING_OPS(rd, Down)
FERRY_COMPAT_ROUNDING_OPS(ru, Up)
FERRY_COMPAT_ROUNDING_OPS(rz, Zero)
#undef FERRY_COMPAT_ROUNDING_OPS

#endif  // !OCML_BASIC_ROUNDED_OPERATIONS && !FERRY_COMPAT_NO_ROUNDING
