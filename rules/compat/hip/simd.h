// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/simd.h.
// CUDA's SIMD-in-word intrinsics (__vadd2, __vmaxs4, __vcmpeq4, __vsadu4, ...) and packed dot
// products (__dp4a, __dp2a_lo, __dp2a_hi), which HIP does not
// provide (HIP 5.2 to 6.x at least). Each treats an unsigned int as two 16-bit or four 8-bit lanes; the semantics are those
// of the CUDA Math API reference ("SIMD Intrinsics"): wrap-around unless the name says ss/us
// (saturated signed/unsigned), comparisons giving all-ones (__vcmp*) or 1 (__vset*) per lane,
// __vsad* the sum over lanes of |a - b|. Plain lane loops: the compiler unrolls them.
// Define FERRY_COMPAT_NO_SIMD if your HIP provides these names itself.
#pragma once
#include <hip/hip_runtime.h>

#if !defined(FERRY_COMPAT_NO_SIMD)
namespace ferry_compat_simd {

// Lane i of x as a signed or unsigned value of `Bits` bits.
template <int Bits>
__host__ __device__ inline int lane_s(unsigned int x, int i) {
  const unsigned int u = (x >> (i * Bits)) & ((1u << Bits) - 1u);
  return (u & (1u << (Bits - 1))) ? static_cast<int>(u) - (1 << Bits) : static_cast<int>(u);
}
template <int Bits>
__host__ __device__ inline int lane_u(unsigned int x, int i) {
  return static_cast<int>((x >> (i * Bits)) & ((1u << Bits) - 1u));
}
template <int Bits>
__host__ __device__ inline int clamp_s(int v) {
  const int hi = (1 << (Bits - 1)) - 1, lo = -(1 << (Bits - 1));
  return v > hi ? hi : v < lo ? lo : v;
}
template <int Bits>
__host__ __device__ inline int clamp_u(int v) {
  const int hi = (1 << Bits) - 1;
  return v > hi ? hi : v < 0 ? 0 : v;
}
}  // namespace ferry_compat_simd

#define FERRY_SIMD_(name, bits, expr)                                                      \
  __host__ __device__ inline unsigned int name(unsigned int a, unsigned int b) {          \
    using namespace ::ferry_compat_simd;                                                  \
    unsigned int r = 0;                                                                   \
    for (int i = 0; i < 32 / (bits); ++i) {                                               \
      const int sa = lane_s<bits>(a, i), sb = lane_s<bits>(b, i);                         \
      const int ua = lane_u<bits>(a, i), ub = lane_u<bits>(b, i);                         \
      (void)sa, (void)sb, (void)ua, (void)ub;                                             \
      r |= (static_cast<unsigned int>(expr) & ((1u << (bits)) - 1u)) << (i * (bits));     \
    }                                                                                     \
    return r;                                                                             \
  }
#define FERRY_SIMD_UNARY_(name, bits, expr)                                                \
  __host__ __device__ inline unsigned int name(unsigned int a) {                          \
    using namespace ::ferry_compat_simd;                                                  \
    unsigned int r = 0;                                                                   \
    for (int i = 0; i < 32 / (bits); ++i) {                                               \
      const int sa = lane_s<bits>(a, i);                                                  \
      r |= (static_cast<unsigned int>(expr) & ((1u << (bits)) - 1u)) << (i * (bits));     \
    }                                                                                     \
    return r;                                                                             \
  }
#define FERRY_SIMD_BOTH_(name, expr) FERRY_SIMD_(name##2, 16, expr) FERRY_SIMD_(name##4, 8, expr)
#define FERRY_SIMD_UNARY_BOTH_(name, expr) FERRY_SIMD_UNARY_(name##2, 16, expr) FERRY_SIMD_UNARY_(name##4, 8, expr)

FERRY_SIMD_UNARY_(__vabs2, 16, sa < 0 ? -sa : sa)
FERRY_SIMD_UNARY_(__vabs4, 8, sa < 0 ? -sa : sa)
FERRY_SIMD_UNARY_(__vabsss2, 16, clamp_s<16>(sa < 0 ? -sa : sa))
FERRY_SIMD_UNARY_(__vabsss4, 8, clamp_s<8>(sa < 0 ? -sa : sa))
FERRY_SIMD_UNARY_BOTH_(__vneg, -sa)
FERRY_SIMD_UNARY_(__vnegss2, 16, clamp_s<16>(-sa))
FERRY_SIMD_UNARY_(__vnegss4, 8, clamp_s<8>(-sa))

FERRY_SIMD_BOTH_(__vadd, ua + ub)
FERRY_SIMD_BOTH_(__vsub, ua - ub)
FERRY_SIMD_(__vaddss2, 16, clamp_s<16>(sa + sb))
FERRY_SIMD_(__vaddss4, 8, clamp_s<8>(sa + sb))
FERRY_SIMD_(__vaddus2, 16, clamp_u<16>(ua + ub))
FERRY_SIMD_(__vaddus4, 8, clamp_u<8>(ua + ub))
FERRY_SIMD_(__vsubss2, 16, clamp_s<16>(sa - sb))
FERRY_SIMD_(__vsubss4, 8, clamp_s<8>(sa - sb))
FERRY_SIMD_(__vsubus2, 16, clamp_u<16>(ua - ub))
FERRY_SIMD_(__vsubus4, 8, clamp_u<8>(ua - ub))

FERRY_SIMD_BOTH_(__vabsdiffs, sa > sb ? sa - sb : sb - sa)
FERRY_SIMD_BOTH_(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
// Rounded averages: (a + b + 1) >> 1, computed without overflow; __vhaddu*: (a + b) >> 1.
FERRY_SIMD_BOTH_(__vavgs, (sa + sb + 1) >> 1)
FERRY_SIMD_BOTH_(__vavgu, (ua + ub + 1) >> 1)
FERRY_SIMD_BOTH_(__vhaddu, (ua + ub) >> 1)
FERRY_SIMD_BOTH_(__vmaxs, sa > sb ? sa : sb)
FERRY_SIMD_BOTH_(__vmaxu, ua > ub ? ua : ub)
FERRY_SIMD_BOTH_(__vmins, sa < sb ? sa : sb)
FERRY_SIMD_BOTH_(__vminu, ua < ub ? ua : ub)

FERRY_SIMD_BOTH_(__vcmpeq, ua == ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpne, ua != ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpges, sa >= sb ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpgeu, ua >= ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpgts, sa > sb ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpgtu, ua > ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmples, sa <= sb ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpleu, ua <= ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmplts, sa < sb ? -1 : 0)
FERRY_SIMD_BOTH_(__vcmpltu, ua < ub ? -1 : 0)
FERRY_SIMD_BOTH_(__vseteq, ua == ub ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetne, ua != ub ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetges, sa >= sb ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetgeu, ua >= ub ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetgts, sa > sb ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetgtu, ua > ub ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetles, sa <= sb ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetleu, ua <= ub ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetlts, sa < sb ? 1 : 0)
FERRY_SIMD_BOTH_(__vsetltu, ua < ub ? 1 : 0)

// Sums of absolute differences over the lanes: one unsigned result, not per lane.
#define FERRY_SIMD_SAD_(name, bits, lane)                                                  \
  __host__ __device__ inline unsigned int name(unsigned int a, unsigned int b) {          \
    unsigned int s = 0;                                                                   \
    for (int i = 0; i < 32 / bits; ++i) {                                                 \
      const int x = ::ferry_compat_simd::lane<bits>(a, i), y = ::ferry_compat_simd::lane<bits>(b, i); \
      s += static_cast<unsigned int>(x > y ? x - y : y - x);                              \
    }                                                                                     \
    return s;                                                                             \
  }
FERRY_SIMD_SAD_(__vsads2, 16, lane_s)
FERRY_SIMD_SAD_(__vsads4, 8, lane_s)
FERRY_SIMD_SAD_(__vsadu2, 16, lane_u)
FERRY_SIMD_SAD_(__vsadu4, 8, lane_u)

// Dot products of packed integers (CUDA's __dp4a, __dp2a_lo, __dp2a_hi): __dp4a sums the four
// byte products of a and b, __dp2a_* the products of a's two 16-bit halves with two bytes of b
// (bytes 0-1 for _lo, 2-3 for _hi), then add c. Signed where the arguments are int (or char4,
// short2), unsigned where they are unsigned int (or uchar4, ushort2), as CUDA's overloads are;
// the sum wraps modulo 2^32 as CUDA's does (no saturation).
__host__ __device__ inline int __dp4a(int a, int b, int c) {
  unsigned int s = static_cast<unsigned int>(c);
  for (int i = 0; i < 4; ++i)
    s += static_cast<unsigned int>(::ferry_compat_simd::lane_s<8>(static_cast<unsigned int>(a), i) *
                                   ::ferry_compat_simd::lane_s<8>(static_cast<unsigned int>(b), i));
  return static_cast<int>(s);
}
__host__ __device__ inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  unsigned int s = c;
  for (int i = 0; i < 4; ++i)
    s += static_cast<unsigned int>(::ferry_compat_simd::lane_u<8>(a, i) * ::ferry_compat_simd::lane_u<8>(b, i));
  return s;
}
__host__ __device__ inline int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(static_cast<int>(static_cast<unsigned char>(a.x) | static_cast<unsigned char>(a.y) << 8 |
                                 static_cast<unsigned char>(a.z) << 16 | static_cast<unsigned int>(static_cast<unsigned char>(a.w)) << 24),
                static_cast<int>(static_cast<unsigned char>(b.x) | static_cast<unsigned char>(b.y) << 8 |
                                 static_cast<unsigned char>(b.z) << 16 | static_cast<unsigned int>(static_cast<unsigned char>(b.w)) << 24),
                c);
}
__host__ __device__ inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return __dp4a(static_cast<unsigned int>(a.x | a.y << 8 | a.z << 16) | static_cast<unsigned int>(a.w) << 24,
                static_cast<unsigned int>(b.x | b.y << 8 | b.z << 16) | static_cast<unsigned int>(b.w) << 24, c);
}
#define FERRY_SIMD_DP2A_(name, first)                                                                    \
  __host__ __device__ inline int name(int a, int b, int c) {                                            \
    unsigned int s = static_cast<unsigned int>(c);                                                       \
    for (int i = 0; i < 2; ++i)                                                                          \
      s += static_cast<unsigned int>(::ferry_compat_simd::lane_s<16>(static_cast<unsigned int>(a), i) *   \
                                     ::ferry_compat_simd::lane_s<8>(static_cast<unsigned int>(b), first + i)); \
    return static_cast<int>(s);                                                                          \
  }                                                                                                      \
  __host__ __device__ inline unsigned int name(unsigned int a, unsigned int b, unsigned int c) {        \
    unsigned int s = c;                                                                                  \
    for (int i = 0; i < 2; ++i)                                                                          \
      s += static_cast<unsigned int>(::ferry_compat_simd::lane_u<16>(a, i)) *                            \
           static_cast<unsigned int>(::ferry_compat_simd::lane_u<8>(b, first + i));                      \
    return s;                                                                                            \
  }                                                                                                      \
  __host__ __device__ inline int name(short2 a, char4 b, int c) {                                       \
    return name(static_cast<int>(static_cast<unsigned short>(a.x) |                                      \
                                 static_cast<unsigned int>(static_cast<unsigned short>(a.y)) << 16),     \
                static_cast<int>(static_cast<unsigned char>(b.x) | static_cast<unsigned char>(b.y) << 8 |   \
                                 static_cast<unsigned char>(b.z) << 16 |                                 \
                                 static_cast<unsigned int>(static_cast<unsigned char>(b.w)) << 24),      \
                c);                                                                                      \
  }                                                                                                      \
  __host__ __device__ inline unsigned int name(ushort2 a, uchar4 b, unsigned int c) {                   \
    return name(static_cast<unsigned int>(a.x) | static_cast<unsigned int>(a.y) << 16,                   \
                static_cast<unsigned int>(b.x | b.y << 8 | b.z << 16) | static_cast<unsigned int>(b.w) << 24, c); \
  }
FERRY_SIMD_DP2A_(__dp2a_lo, 0)
FERRY_SIMD_DP2A_(__dp2a_hi, 2)

#undef FERRY_SIMD_DP2A_
#undef FERRY_SIMD_
#undef FERRY_SIMD_UNARY_
#undef FERRY_SIMD_BOTH_
#undef FERRY_SIMD_UNARY_BOTH_
#undef FERRY_SIMD_SAD_
#endif  // FERRY_COMPAT_NO_SIMD
