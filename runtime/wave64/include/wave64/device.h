// wave64 runtime: what kernel code sees, shared by the HIP and the CUDA front headers.
// Qualifiers, built-in variables, block barriers, fences, atomics, bit and float intrinsics.
// The warp intrinsics differ between the two APIs and live in warp_hip.h / warp_cuda.h.
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
// Before the qualifier macros below: libstdc++'s shared_ptr_base.h spells
// __attribute__((__noinline__)), which the `__noinline__` macro would break when a program
// includes <memory> after cuda_runtime.h (nvcc treats the word as a keyword instead).
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "wave64/core.h"
#include "wave64/fp16.h"
#include "wave64/regions.h"
#include "wave64/vector_types.h"

// ---- qualifiers -----------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
// One instance per OS thread, and a worker thread runs one block at a time: per-block storage.
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
// Headers that spell __attribute__((__noinline__)) after this point (libstdc++ 13 has one past
// <memory>; so do many libraries) see it expand to __attribute__((__attribute__((noinline)))):
// GCC reads the inner one as an unknown attribute whose argument is the expression `noinline`.
// Declaring that name makes the expression valid, and GCC ignores the unknown attribute (a
// -Wattributes warning outside system headers) instead of stopping the build.
namespace w64::detail {
enum noinline_word { noinline };
}
using w64::detail::noinline;
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __device_builtin__
#if !defined(__clang__)
#define __builtin_assume(x) ((void)0)
#endif

// ---- built-in variables ---------------------------------------------------------------------
#define threadIdx W64_THREAD_IDX
#define blockIdx W64_BLOCK_IDX
#define blockDim W64_BLOCK_DIM
#define gridDim W64_GRID_DIM
static constexpr int warpSize = W64_WAVE_SIZE;

namespace w64 {
inline unsigned char* dynamic_shared() { return rt::t_block->dyn_shared; }
[[noreturn]] inline void trap(const char* what) {
  fprintf(stderr, "wave64: error: %s in block (%u,%u,%u) thread (%u,%u,%u)\n", what, blockIdx.x, blockIdx.y, blockIdx.z,
          threadIdx.x, threadIdx.y, threadIdx.z);
  abort();
}
// A use of an API the runtime does not have: the static_assert names it at compile time.
template <class... T>
inline constexpr bool unsupported_v = false;
}  // namespace w64

#define W64_STR2(x) #x
#define W64_STR(x) W64_STR2(x)
#define W64_UNSUPPORTED(name, why)                                                                                     \
  template <class... W64_A>                                                                                            \
  inline int name(W64_A&&...) {                                                                                        \
    static_assert(::w64::unsupported_v<W64_A...>, "wave64 CPU runtime: " W64_STR(name) " is not supported (" why ")"); \
    return 0;                                                                                                          \
  }

// ---- block barriers and fences ---------------------------------------------------------------
inline void __syncthreads() { ::w64::rt::block_barrier(0, 0); }
inline int __syncthreads_count(int p) { return ::w64::rt::block_barrier(1, p); }
inline int __syncthreads_and(int p) { return ::w64::rt::block_barrier(2, p); }
inline int __syncthreads_or(int p) { return ::w64::rt::block_barrier(3, p); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// ---- misc device functions ------------------------------------------------------------------
// The time-stamp counter through the compiler builtin: <x86intrin.h> would cost every translation
// unit about 4 s of compile time (80% of what the runtime's headers cost).
#if defined(__x86_64__) || defined(__i386__)
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
#else
inline long long clock64() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
#endif
inline long long wall_clock64() { return clock64(); }
namespace w64 {
// What `clock()` in device code becomes (the driver rewrites it): the cycle counter, as on a GPU.
inline clock_t device_clock() { return static_cast<clock_t>(clock64()); }
}  // namespace w64
inline void __nanosleep(unsigned) {}
[[noreturn]] inline void __trap() { ::w64::trap("__trap()"); }
inline void __brkpt() {}
template <class T>
inline T __ldg(const T* p) {
  return *p;
}
template <class T>
inline T __ldca(const T* p) {
  return *p;
}
template <class T>
inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
inline T __ldcs(const T* p) {
  return *p;
}
template <class T>
inline T __ldlu(const T* p) {
  return *p;
}
template <class T>
inline T __ldcv(const T* p) {
  return *p;
}
template <class T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
  *p = v;
}

// ---- PTX special registers ------------------------------------------------------------------
// What `asm("mov.u32 %0, %%laneid;" : "=r"(x))` and its kin read; the driver rewrites such a
// statement into a call of these (src/wave64/transform.cpp). PTX registers describe 32-lane
// warps: the lane masks are of the lane's position in its 32-lane half on a wider wavefront.
namespace w64 {
inline unsigned ptx_sreg_laneid() { return rt::t_lane->lane; }
inline unsigned ptx_lane32() { return rt::t_lane->lane & 31u; }
inline unsigned ptx_sreg_lanemask_eq() { return 1u << ptx_lane32(); }
inline unsigned ptx_sreg_lanemask_lt() { return (1u << ptx_lane32()) - 1u; }
inline unsigned ptx_sreg_lanemask_le() { return ptx_sreg_lanemask_lt() | ptx_sreg_lanemask_eq(); }
inline unsigned ptx_sreg_lanemask_gt() { return ~ptx_sreg_lanemask_le(); }
inline unsigned ptx_sreg_lanemask_ge() { return ~ptx_sreg_lanemask_lt(); }
inline unsigned ptx_sreg_warpid() { return rt::t_lane->wave; }
inline unsigned ptx_sreg_nwarpid() { return 64; }
inline unsigned ptx_sreg_smid() { return 0; }
inline unsigned ptx_sreg_nsmid() { return 1; }
inline unsigned ptx_sreg_clock() { return static_cast<unsigned>(clock64()); }
inline unsigned long long ptx_sreg_clock64() { return static_cast<unsigned long long>(clock64()); }
inline unsigned long long ptx_sreg_globaltimer() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull + static_cast<unsigned long long>(ts.tv_nsec);
}
}  // namespace w64

// ---- integer intrinsics ---------------------------------------------------------------------
// The typed min/max of CUDA's and HIP's device math (cuda-samples' mergeSort calls umin).
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffs(unsigned int x) { return __builtin_ffs(static_cast<int>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __ffsll(unsigned long long x) { return __builtin_ffsll(static_cast<long long>(x)); }
inline int __clz(int x) { return x ? __builtin_clz(static_cast<unsigned>(x)) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll(static_cast<unsigned long long>(x)) : 64; }
inline unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
  return r;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (s & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << std::min(s, 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (s & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> std::min(s, 32u));
}
inline int __mul24(int a, int b) { return static_cast<int>((static_cast<long long>(a << 8 >> 8) * (b << 8 >> 8))); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z) { return z + static_cast<unsigned>(x > y ? x - y : y - x); }
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) { return static_cast<unsigned>((0ull + x + y) >> 1); }
inline unsigned int __urhadd(unsigned int x, unsigned int y) { return static_cast<unsigned>((0ull + x + y + 1) >> 1); }

// ---- min / max as CUDA and HIP declare them for device code --------------------------------
#define W64_MINMAX(T)                              \
  inline T min(T a, T b) { return a < b ? a : b; } \
  inline T max(T a, T b) { return a > b ? a : b; }
W64_MINMAX(int)
W64_MINMAX(unsigned int)
W64_MINMAX(long)
W64_MINMAX(unsigned long)
W64_MINMAX(long long)
W64_MINMAX(unsigned long long)
W64_MINMAX(float)
W64_MINMAX(double)
#undef W64_MINMAX
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned>(b)); }
inline double min(float a, double b) { return min(static_cast<double>(a), b); }
inline double min(double a, float b) { return min(a, static_cast<double>(b)); }
inline double max(float a, double b) { return max(static_cast<double>(a), b); }
inline double max(double a, float b) { return max(a, static_cast<double>(b)); }
inline long long min(long long a, int b) { return min(a, static_cast<long long>(b)); }
inline long long max(long long a, int b) { return max(a, static_cast<long long>(b)); }
inline long long min(int a, long long b) { return min(static_cast<long long>(a), b); }
inline long long max(int a, long long b) { return max(static_cast<long long>(a), b); }

// ---- float intrinsics (the fast forms compute the exact function here) --------------------
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline float __fadd_rz(float x, float y) { return x + y; }
inline float __fmul_rz(float x, float y) { return x * y; }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dsub_rn(double x, double y) { return x - y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return sinf(static_cast<float>(M_PI) * x); }
inline float cospif(float x) { return cosf(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline void sincospif(float x, float* s, float* c) { sincosf(static_cast<float>(M_PI) * x, s, c); }
inline void sincospi(double x, double* s, double* c) { sincos(M_PI * x, s, c); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline float fdividef(float x, float y) { return x / y; }

inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned>(nearbyintf(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned>(x); }
inline unsigned int __float2uint_ru(float x) { return static_cast<unsigned>(ceilf(x)); }
inline unsigned int __float2uint_rd(float x) { return static_cast<unsigned>(floorf(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(nearbyintf(x)); }
inline long long __float2ll_rz(float x) { return static_cast<long long>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }
inline long long __double2ll_rn(double x) { return static_cast<long long>(nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __double2float_rz(double x) { return static_cast<float>(x); }
inline int __float_as_int(float x) {
  int i;
  std::memcpy(&i, &x, sizeof i);
  return i;
}
inline unsigned int __float_as_uint(float x) {
  unsigned int i;
  std::memcpy(&i, &x, sizeof i);
  return i;
}
inline float __int_as_float(int i) {
  float x;
  std::memcpy(&x, &i, sizeof x);
  return x;
}
inline float __uint_as_float(unsigned int i) {
  float x;
  std::memcpy(&x, &i, sizeof x);
  return x;
}
inline long long __double_as_longlong(double x) {
  long long i;
  std::memcpy(&i, &x, sizeof i);
  return i;
}
inline double __longlong_as_double(long long i) {
  double x;
  std::memcpy(&x, &i, sizeof x);
  return x;
}
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>(
      (static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo)));
}

// ---- atomics: real atomics, since blocks run on several OS threads -----------------------------
namespace w64 {
template <class T, class F>
inline T atomic_update(T* p, F f) {
  using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long,
                                  std::conditional_t<sizeof(T) == 4, unsigned int, unsigned short>>;
  static_assert(sizeof(T) == sizeof(Bits), "atomic on an unsupported size");
  auto* bp = reinterpret_cast<Bits*>(p);
  Bits old_bits = __atomic_load_n(bp, __ATOMIC_RELAXED);
  for (;;) {
    T old_val;
    std::memcpy(&old_val, &old_bits, sizeof old_val);
    const T new_val = f(old_val);
    Bits new_bits;
    std::memcpy(&new_bits, &new_val, sizeof new_bits);
    if (__atomic_compare_exchange_n(bp, &old_bits, new_bits, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old_val;
  }
}
}  // namespace w64

#define W64_ATOMIC_INT(T)                                                                \
  inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }   \
  inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }   \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }   \
  inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }     \
  inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }   \
  inline T atomicMin(T* p, T v) {                                                        \
    return ::w64::atomic_update(p, [v](T o) { return o < v ? o : v; });                  \
  }                                                                                      \
  inline T atomicMax(T* p, T v) {                                                        \
    return ::w64::atomic_update(p, [v](T o) { return o > v ? o : v; });                  \
  }                                                                                      \
  inline T atomicCAS(T* p, T cmp, T v) {                                                 \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    return cmp;                                                                          \
  }
W64_ATOMIC_INT(int)
W64_ATOMIC_INT(unsigned int)
W64_ATOMIC_INT(unsigned long long)
W64_ATOMIC_INT(long long)
W64_ATOMIC_INT(unsigned long)
#undef W64_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short* p, unsigned short cmp, unsigned short v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cmp;
}
inline float atomicAdd(float* p, float v) {
  return ::w64::atomic_update(p, [v](float o) { return o + v; });
}
inline double atomicAdd(double* p, double v) {
  return ::w64::atomic_update(p, [v](double o) { return o + v; });
}
inline float atomicSub(float* p, float v) {
  return ::w64::atomic_update(p, [v](float o) { return o - v; });
}
inline float atomicExch(float* p, float v) {
  return ::w64::atomic_update(p, [v](float) { return v; });
}
inline double atomicExch(double* p, double v) {
  return ::w64::atomic_update(p, [v](double) { return v; });
}
inline float atomicMin(float* p, float v) {
  return ::w64::atomic_update(p, [v](float o) { return fminf(o, v); });
}
inline float atomicMax(float* p, float v) {
  return ::w64::atomic_update(p, [v](float o) { return fmaxf(o, v); });
}
inline double atomicMin(double* p, double v) {
  return ::w64::atomic_update(p, [v](double o) { return fmin(o, v); });
}
inline double atomicMax(double* p, double v) {
  return ::w64::atomic_update(p, [v](double o) { return fmax(o, v); });
}
inline __half atomicAdd(__half* p, __half v) {
  return ::w64::atomic_update(p, [v](__half o) { return o + v; });
}
inline __half2 atomicAdd(__half2* p, __half2 v) {
  return ::w64::atomic_update(p, [v](__half2 o) { return o + v; });
}
inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  return ::w64::atomic_update(p, [limit](unsigned int o) { return o >= limit ? 0u : o + 1u; });
}
inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  return ::w64::atomic_update(p, [limit](unsigned int o) { return (o == 0u || o > limit) ? limit : o - 1u; });
}
#define W64_ATOMIC_SCOPED(name)           \
  template <class T, class... V>          \
  inline T name##_block(T* p, V... v) {   \
    return name(p, static_cast<T>(v)...); \
  }                                       \
  template <class T, class... V>          \
  inline T name##_system(T* p, V... v) {  \
    return name(p, static_cast<T>(v)...); \
  }
W64_ATOMIC_SCOPED(atomicAdd)
W64_ATOMIC_SCOPED(atomicSub)
W64_ATOMIC_SCOPED(atomicExch)
W64_ATOMIC_SCOPED(atomicMin)
W64_ATOMIC_SCOPED(atomicMax)
W64_ATOMIC_SCOPED(atomicAnd)
W64_ATOMIC_SCOPED(atomicOr)
W64_ATOMIC_SCOPED(atomicXor)
W64_ATOMIC_SCOPED(atomicCAS)
#undef W64_ATOMIC_SCOPED

// ---- textures and surfaces: objects in texture.h / api.h; layered ones are not modelled ------
W64_UNSUPPORTED(tex2DLayered, "layered textures")
W64_UNSUPPORTED(tex1DLayered, "layered textures")
W64_UNSUPPORTED(texCubemap, "cubemap textures")
W64_UNSUPPORTED(surf2DLayeredread, "layered surfaces")
W64_UNSUPPORTED(surf2DLayeredwrite, "layered surfaces")
W64_UNSUPPORTED(surf3Dread, "3-D surfaces")
W64_UNSUPPORTED(surf3Dwrite, "3-D surfaces")

// ---- dynamic shared memory written with the HIP macro ---------------------------------------
#define HIP_DYNAMIC_SHARED(type, var) type* var = reinterpret_cast<type*>(::w64::dynamic_shared());
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

// ---- launches -----------------------------------------------------------------------------
namespace w64 {
// A launch's arguments, converted once (at the launch, on the host) to the types of the kernel's
// first parameters, and the call that runs one lane. The call names the kernel (a lambda written
// at the launch), so parameters the launch leaves out take the kernel's default arguments as in
// CUDA, where `k<<<g, b>>>(x)` is a call of k. Each lane's parameters are its own copies.
template <class Call, class Args>
struct KernelCall {
  Call call;
  Args args;
  // Runs lanes until none is left to start (core.h, LaneCursor): while no lane of the block has
  // waited, as a plain loop with the kernel inlined; then through the scheduler.
  static void invoke(void* c) {
    auto* self = static_cast<KernelCall*>(c);
    rt::LaneCursor& cur = *rt::t_cursor;
    if (!cur.slow) {
      // The cursor's fields in registers; `next` is not stored per lane: a lane that waits is the
      // last one started, and the scheduler takes the next from its index (leave_fast_path).
      const unsigned count = cur.count;
      const unsigned char* const base = cur.info_base;
      const std::size_t stride = cur.info_stride;
      // The call and the arguments as locals: their addresses do not escape, so the kernel's
      // stores (through any pointer: programs are built with -fno-strict-aliasing) cannot change
      // them, and g++ keeps them in registers instead of loading them again for every lane.
      // Each lane's parameters are still its own copies (the kernel takes them by value).
      Call call = self->call;
      Args args = self->args;
      for (unsigned i = cur.next; i < count; ++i) {
        rt::t_lane = reinterpret_cast<const rt::LaneInfo*>(base + i * stride);
        std::apply(call, args);
        if (__builtin_expect(cur.slow | cur.done, 0)) {
          // A lane waited while this one ran (this one, or one started while it waited): from
          // now on every lane is accounted for, this one first. Or the first lane ran the whole
          // block in region form (regions.h): nothing is left to run.
          if (cur.slow) rt::finish_lane();
          break;
        }
      }
      if (!cur.slow) {
        cur.next = count;
        return;
      }
    }
    while (rt::start_lane()) {
      std::apply(self->call, self->args);
      rt::finish_lane();
    }
  }
};
template <class... T, std::size_t... I>
std::tuple<std::tuple_element_t<I, std::tuple<T...>>...> args_prefix(std::index_sequence<I...>);
// std::tuple of the first K of T...
template <std::size_t K, class... T>
using ArgsPrefix = decltype(args_prefix<T...>(std::make_index_sequence<K>{}));
}  // namespace w64
