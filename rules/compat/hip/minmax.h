// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/minmax.h.
// The integer min()/max() of CUDA's math API that HIP 5.2 (clang 15's __clang_hip_math.h: int,
// float and double only) lacks: unsigned, long, long long and their mixes with int, the
// float/double mixes (and, in host code, where HIP 5.2 has min(int, int) only, float and double
// themselves), and umin, umax, llmin, llmax, ullmin, ullmax.
//
// CUDA computes a mixed call in the type the usual arithmetic conversions give (min(int,
// unsigned) is an unsigned min); so do these. Floating results use fmin/fmax, as CUDA's do (the
// other operand when one is NaN). Every function here is a template, so an exact non-template
// overload that a HIP release does have always wins over it: the header is safe with any HIP.
// The arguments are taken by value and promoted first, which also accepts HIP's blockDim.x and
// friends (objects that convert to unsigned) where CUDA has plain unsigned ints.
// A project may #define min or max itself (before or after this header): the definitions below
// are made with those macros set aside (push_macro/pop_macro), and the project's calls then go
// to its own macro, as they did under nvcc.
#pragma once
#include <hip/hip_runtime.h>
#pragma push_macro("min")
#pragma push_macro("max")
#undef min
#undef max
#include <type_traits>
#include <utility>

namespace ferry_compat_minmax {

template <class A, class B>
struct common {
  using PA = decltype(+std::declval<A>());
  using PB = decltype(+std::declval<B>());
  static constexpr bool integral = std::is_integral<PA>::value && std::is_integral<PB>::value;
  static constexpr bool floating = std::is_floating_point<PA>::value && std::is_floating_point<PB>::value;
  // int/int is HIP's own everywhere, float/float and double/double in device code (its exact
  // overloads win there); in host code HIP 5.2 has min(int, int) only, which would narrow them.
  static constexpr bool ours = (integral && !(std::is_same<PA, int>::value && std::is_same<PB, int>::value)) || floating;
  using type = decltype(std::declval<PA>() + std::declval<PB>());
};

template <class T>
__host__ __device__ inline T pick_min(T a, T b) {
  return a < b ? a : b;
}
template <class T>
__host__ __device__ inline T pick_max(T a, T b) {
  return a > b ? a : b;
}
__host__ __device__ inline float pick_min(float a, float b) { return fminf(a, b); }
__host__ __device__ inline float pick_max(float a, float b) { return fmaxf(a, b); }
__host__ __device__ inline double pick_min(double a, double b) { return fmin(a, b); }
__host__ __device__ inline double pick_max(double a, double b) { return fmax(a, b); }

}  // namespace ferry_compat_minmax

template <class A, class B, class C = typename std::enable_if<ferry_compat_minmax::common<A, B>::ours,
                                                              typename ferry_compat_minmax::common<A, B>::type>::type>
__host__ __device__ inline C min(A a, B b) {
  return ferry_compat_minmax::pick_min(static_cast<C>(a), static_cast<C>(b));
}
template <class A, class B, class C = typename std::enable_if<ferry_compat_minmax::common<A, B>::ours,
                                                              typename ferry_compat_minmax::common<A, B>::type>::type>
__host__ __device__ inline C max(A a, B b) {
  return ferry_compat_minmax::pick_max(static_cast<C>(a), static_cast<C>(b));
}

template <int = 0>
__host__ __device__ inline unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
template <int = 0>
__host__ __device__ inline unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
template <int = 0>
__host__ __device__ inline long long int llmin(long long int a, long long int b) {
  return a < b ? a : b;
}
template <int = 0>
__host__ __device__ inline long long int llmax(long long int a, long long int b) {
  return a > b ? a : b;
}
template <int = 0>
__host__ __device__ inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b) {
  return a < b ? a : b;
}
template <int = 0>
__host__ __device__ inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b) {
  return a > b ? a : b;
}

#pragma pop_macro("max")
#pragma pop_macro("min")
