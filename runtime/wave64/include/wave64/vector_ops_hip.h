// wave64 runtime, HIP mode only: the arithmetic HIP's <hip/hip_vector_types.h> gives its vector
// types (float3, int4, ...: HIP_vector_type<T, n>), which CUDA's do not have. A HIP port relies
// on them: `migrate --to hip` guards a CUDA helper's own `operator+=(float3&, float3)` with
// `#if !defined(__HIP_PLATFORM_AMD__)` (FRY4103, rules/hip_provided.tsv) because HIP's member
// operator makes the call ambiguous, so on the HIP side HIP's definition must serve the uses
// (cuda-samples' dxtc: `sums[idx] += sums[idx ^ 8]` on float3).
//
// Templates, as HIP's are: a user's non-template operator (helper_math.h's `operator+(float3,
// float3)`, `operator*(float3, float)`) is the better match and keeps serving its calls.
// Provided: compound + - * / with a vector of the same type or a scalar; binary + - * / on two
// vectors of one type, a vector and a scalar, a scalar and a vector; unary -; == and != (true
// when every / some component compares so). Not provided: % and the bitwise operators.
#pragma once

#include <type_traits>

#include "wave64/vector_types.h"

namespace wave64::hipvec {

template <class V>
struct traits {
  static constexpr int n = 0;
};
#define W64_HIPVEC(T, N)             \
  template <>                        \
  struct traits<T##N> {              \
    static constexpr int n = N;      \
    using elem = decltype(T##N{}.x); \
  };
#define W64_HIPVEC4(T) W64_HIPVEC(T, 1) W64_HIPVEC(T, 2) W64_HIPVEC(T, 3) W64_HIPVEC(T, 4)
W64_HIPVEC4(char)
W64_HIPVEC4(uchar)
W64_HIPVEC4(short)
W64_HIPVEC4(ushort)
W64_HIPVEC4(int)
W64_HIPVEC(uint, 1)
W64_HIPVEC(uint, 2)
W64_HIPVEC(uint, 3)
W64_HIPVEC(uint, 4)
W64_HIPVEC4(long)
W64_HIPVEC4(ulong)
W64_HIPVEC4(longlong)
W64_HIPVEC4(ulonglong)
W64_HIPVEC4(float)
W64_HIPVEC4(double)
#undef W64_HIPVEC4
#undef W64_HIPVEC

template <class V>
inline constexpr bool is_vec = traits<std::remove_cv_t<V>>::n > 0;
template <class S>
inline constexpr bool is_scalar = std::is_arithmetic_v<S>;

// f(component of a, component of b) for each component; b is a vector or a scalar.
template <class V, class B, class F>
constexpr void each(V& a, const B& b, F f) {
  constexpr int n = traits<std::remove_cv_t<V>>::n;
  if constexpr (is_vec<B>) {
    f(a.x, b.x);
    if constexpr (n >= 2) f(a.y, b.y);
    if constexpr (n >= 3) f(a.z, b.z);
    if constexpr (n >= 4) f(a.w, b.w);
  } else {
    f(a.x, b);
    if constexpr (n >= 2) f(a.y, b);
    if constexpr (n >= 3) f(a.z, b);
    if constexpr (n >= 4) f(a.w, b);
  }
}

template <class V, class B>
inline constexpr bool operand = is_vec<V> && (std::is_same_v<std::remove_cv_t<V>, std::remove_cv_t<B>> || is_scalar<B>);

}  // namespace wave64::hipvec

#define W64_HIPVEC_OP(OP)                                                                                           \
  template <class V, class B, std::enable_if_t<wave64::hipvec::operand<V, B>, int> = 0>                             \
  inline V& operator OP##=(V& a, const B& b) {                                                                      \
    using E = typename wave64::hipvec::traits<V>::elem;                                                             \
    wave64::hipvec::each(a, b, [](E& x, const auto& y) { x = static_cast<E>(x OP y); });                            \
    return a;                                                                                                       \
  }                                                                                                                 \
  template <class V, class B, std::enable_if_t<wave64::hipvec::operand<V, B>, int> = 0>                             \
  inline V operator OP(V a, const B& b) {                                                                           \
    return a OP## = b;                                                                                              \
  }                                                                                                                 \
  template <class S, class V, std::enable_if_t<wave64::hipvec::is_scalar<S> && wave64::hipvec::is_vec<V>, int> = 0> \
  inline V operator OP(const S& s, const V& b) {                                                                    \
    using E = typename wave64::hipvec::traits<V>::elem;                                                             \
    V a = b;                                                                                                        \
    wave64::hipvec::each(a, b, [&s](E& x, const E& y) { x = static_cast<E>(s OP y); });                             \
    return a;                                                                                                       \
  }
W64_HIPVEC_OP(+)
W64_HIPVEC_OP(-)
W64_HIPVEC_OP(*)
W64_HIPVEC_OP(/)
#undef W64_HIPVEC_OP

template <class V, std::enable_if_t<wave64::hipvec::is_vec<V>, int> = 0>
inline V operator-(const V& v) {
  using E = typename wave64::hipvec::traits<V>::elem;
  V a = v;
  wave64::hipvec::each(a, v, [](E& x, const E& y) { x = static_cast<E>(-y); });
  return a;
}
template <class V, std::enable_if_t<wave64::hipvec::is_vec<V>, int> = 0>
inline bool operator==(const V& a, const V& b) {
  bool all = true;
  V t = a;
  using E = typename wave64::hipvec::traits<V>::elem;
  wave64::hipvec::each(t, b, [&all](E& x, const E& y) { all = all && x == y; });
  return all;
}
template <class V, std::enable_if_t<wave64::hipvec::is_vec<V>, int> = 0>
inline bool operator!=(const V& a, const V& b) {
  return !(a == b);
}
