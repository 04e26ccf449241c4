// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/fp16_shfl.h.
// Warp shuffles of __half and __half2: CUDA's cuda_fp16.hpp declares __shfl_sync, __shfl_up_sync,
// __shfl_down_sync and __shfl_xor_sync for both; HIP 5.2's __shfl* have int, unsigned, long,
// unsigned long, long long, unsigned long long, float and double overloads only, so a __half value
// is "call to '__shfl_down' is ambiguous" (it converts to float and to other types alike) and a
// __half2 value has no matching function.
//
// How: the 16 (32) bits of the value go through HIP's int shuffle and come back as the same type,
// so the result is bit for bit the value of the source lane, as CUDA's. Every function is a
// template that accepts exactly __half / __half2, so an exact non-template overload (a later HIP
// release's, or a project's own) always wins over it.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

namespace ferry_compat_fp16_shfl {

template <class T>
struct only_half {};
template <>
struct only_half<__half> {
  typedef __half type;
};
template <>
struct only_half<__half2> {
  typedef __half2 type;
};

template <class T>
__device__ inline int to_bits(T v) {
  int u = 0;
  __builtin_memcpy(&u, &v, sizeof v);
  return u;
}
template <class T>
__device__ inline T from_bits(int u) {
  T v;
  __builtin_memcpy(&v, &u, sizeof v);
  return v;
}

}  // namespace ferry_compat_fp16_shfl

template <class T>
__device__ inline typename ferry_compat_fp16_shfl::only_half<T>::type __shfl(T var, int src_lane,
                                                                              int width = warpSize) {
  using namespace ferry_compat_fp16_shfl;
  return from_bits<T>(__shfl(to_bits(var), src_lane, width));
}

template <class T>
__device__ inline typename ferry_compat_fp16_shfl::only_half<T>::type __shfl_up(T var, unsigned int lane_delta,
                                                                                 int width = warpSize) {
  using namespace ferry_compat_fp16_shfl;
  return from_bits<T>(__shfl_up(to_bits(var), lane_delta, width));
}

template <class T>
__device__ inline typename ferry_compat_fp16_shfl::only_half<T>::type __shfl_down(T var, unsigned int lane_delta,
                                                                                   int width = warpSize) {
  using namespace ferry_compat_fp16_shfl;
  return from_bits<T>(__shfl_down(to_bits(var), lane_delta, width));
}

template <class T>
__device__ inline typename ferry_compat_fp16_shfl::only_half<T>::type __shfl_xor(T var, int lane_mask,
                                                                                  int width = warpSize) {
  using namespace ferry_compat_fp16_shfl;
  return from_bits<T>(__shfl_xor(to_bits(var), lane_mask, width));
}
