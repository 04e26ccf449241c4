// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/coop_reduce.h.
// cooperative_groups::reduce and its operators (CUDA's cooperative_groups/reduce.h), which HIP's
// cooperative groups do not have, for thread_block_tile<N> groups: a butterfly of shfl_xor over
// the tile, so every thread of the tile gets the result, as in CUDA. Tiles are powers of two up to
// the wavefront (64 on GFX9). A coalesced_group (coalesced_threads(), or a labeled or binary
// partition where the HIP release has them) reduces as a tree over its ranks with shfl_down, and
// rank 0's result is broadcast. thread_block is not covered: the compiler says so (no matching
// reduce).
// Define FERRY_COMPAT_NO_COOP_REDUCE if your HIP provides cooperative_groups::reduce itself.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

#include <type_traits>

#if !defined(FERRY_COMPAT_NO_COOP_REDUCE)
namespace cooperative_groups {

template <class T>
struct plus {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {  // the smaller value: reduce(g, v, less<T>()) is a minimum, as in CUDA
  __host__ __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger value: a maximum
  __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  __host__ __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace ferry_compat_coop_reduce {
// The tile's shfl_xor of any trivially copyable T: HIP's member takes integer and floating types
// only (a static_assert), CUDA's any type; a struct, __half or vector value goes through it one
// 32-bit word at a time (the last word zero-padded), which moves the same bytes.
template <class Tile, class T>
__device__ inline T shfl_xor(const Tile& tile, T value, unsigned int mask) {
  if constexpr (std::is_integral<T>::value || std::is_floating_point<T>::value) {
    return tile.shfl_xor(value, mask);
  } else {
    static_assert(std::is_trivially_copyable<T>::value,
                  "ferry/compat/coop_reduce.h: cooperative_groups::reduce needs a trivially copyable value");
    constexpr unsigned int kWords = (sizeof(T) + sizeof(int) - 1) / sizeof(int);
    int words[kWords] = {};
    __builtin_memcpy(words, &value, sizeof(T));
    for (unsigned int i = 0; i < kWords; ++i) words[i] = tile.shfl_xor(words[i], mask);
    __builtin_memcpy(&value, words, sizeof(T));
    return value;
  }
}
// The group's shfl_down and shfl as function objects (no generic lambdas: hipcc's default C++).
struct ShflDown {
  template <class Group, class V>
  __device__ V operator()(const Group& g, V v, unsigned int d) const {
    return g.shfl_down(v, d);
  }
};
struct ShflFrom {
  template <class Group, class V>
  __device__ V operator()(const Group& g, V v, unsigned int src) const {
    return g.shfl(v, static_cast<int>(src));
  }
};
// The same word by word for a group's shfl_down / shfl (coalesced_group).
template <class Group, class T, class Shfl>
__device__ inline T shfl_words(const Group& g, T value, unsigned int arg, Shfl shfl) {
  if constexpr (std::is_integral<T>::value || std::is_floating_point<T>::value) {
    return shfl(g, value, arg);
  } else {
    static_assert(std::is_trivially_copyable<T>::value,
                  "ferry/compat/coop_reduce.h: cooperative_groups::reduce needs a trivially copyable value");
    constexpr unsigned int kWords = (sizeof(T) + sizeof(int) - 1) / sizeof(int);
    int words[kWords] = {};
    __builtin_memcpy(words, &value, sizeof(T));
    for (unsigned int i = 0; i < kWords; ++i) words[i] = shfl(g, words[i], arg);
    __builtin_memcpy(&value, words, sizeof(T));
    return value;
  }
}
}  // namespace ferry_compat_coop_reduce

// A user functor or lambda works as in CUDA: op(a, b) on the value type, any value type a
// trivially copyable T (a struct such as a (value, index) pair included).
template <unsigned int Size, class Parent, class T, class Op>
__device__ inline T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
  static_assert((Size & (Size - 1)) == 0, "cooperative_groups::reduce needs a power-of-two tile");
  for (unsigned int offset = Size / 2; offset > 0; offset /= 2)
    value = op(value, ::cooperative_groups::ferry_compat_coop_reduce::shfl_xor(tile, value, offset));
  return value;
}

// A coalesced group: after the round of stride d, rank r (a multiple of 2d) holds the reduction of
// ranks r .. r+2d-1; rank 0's value is then every member's result.
template <class T, class Op>
__device__ inline T reduce(const coalesced_group& g, T value, Op op) {
  const unsigned int n = g.size();
  const unsigned int r = g.thread_rank();
  for (unsigned int d = 1; d < n; d *= 2) {
    const T other = ::cooperative_groups::ferry_compat_coop_reduce::shfl_words(g, value, d, ferry_compat_coop_reduce::ShflDown());
    if (r % (2 * d) == 0 && r + d < n) value = op(value, other);
  }
  return ::cooperative_groups::ferry_compat_coop_reduce::shfl_words(g, value, 0u, ferry_compat_coop_reduce::ShflFrom());
}

}  // namespace cooperative_groups
#endif  // FERRY_COMPAT_NO_COOP_REDUCE
