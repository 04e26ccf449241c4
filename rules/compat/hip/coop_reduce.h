// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/coop_reduce.h.
// cooperative_groups::reduce and its operators (CUDA's cooperative_groups/reduce.h), which HIP's
// cooperative groups do not have, for thread_block_tile<N> groups: a butterfly of shfl_xor over
// the tile, so every thread of the tile gets the result, as in CUDA. Tiles are powers of two up to
// the wavefront (64 on GFX9). Other groups (coalesced_group, thread_block) are not covered: the
// compiler says so (no matching reduce).
// Define FERRY_COMPAT_NO_COOP_REDUCE if your HIP provides cooperative_groups::reduce itself.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

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

template <unsigned int Size, class Parent, class T, class Op>
__device__ inline T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
  static_assert((Size & (Size - 1)) == 0, "cooperative_groups::reduce needs a power-of-two tile");
  for (unsigned int offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}

}  // namespace cooperative_groups
#endif  // FERRY_COMPAT_NO_COOP_REDUCE
