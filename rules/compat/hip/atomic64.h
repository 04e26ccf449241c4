// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/atomic64.h.
// CUDA's atomicMin(long long*, long long) and atomicMax(long long*, long long) (compute capability
// 3.5 up), which HIP declares only from ROCm 5.7 (clr's amd_hip_atomic.h; HIP 5.2 to 5.6 have
// int, unsigned int, unsigned long, unsigned long long, float and double only, so a call on a
// long long* is "no matching function" or ambiguous).
//
// Semantics (CUDA C++ Programming Guide, atomicMin/atomicMax): reads the value at `address`,
// stores the smaller (larger) of it and `val` as signed 64-bit integers, returns the old value.
//
// How: a compare-and-swap loop on the 64-bit word through HIP's
// atomicCAS(unsigned long long*, ...), which stops as soon as the stored value already is the
// minimum (maximum). Both functions are templates that accept exactly long long*, so an exact
// non-template overload (ROCm 5.7's, or a project's own) always wins over them.
#pragma once
#include <hip/hip_runtime.h>

namespace ferry_compat_atomic64 {

template <class T>
struct only_ll {};
template <>
struct only_ll<long long> {
  typedef long long type;
};

template <bool Min>
__device__ inline long long extremum(long long* address, long long val) {
  unsigned long long* word = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(word);
  unsigned long long assumed;
  do {
    assumed = old;
    const long long cur = static_cast<long long>(assumed);
    if (Min ? cur <= val : cur >= val) break;
    old = atomicCAS(word, assumed, static_cast<unsigned long long>(val));
  } while (old != assumed);
  return static_cast<long long>(old);
}

}  // namespace ferry_compat_atomic64

template <class T>
__device__ inline typename ferry_compat_atomic64::only_ll<T>::type atomicMin(T* address, long long val) {
  return ferry_compat_atomic64::extremum<true>(address, val);
}

template <class T>
__device__ inline typename ferry_compat_atomic64::only_ll<T>::type atomicMax(T* address, long long val) {
  return ferry_compat_atomic64::extremum<false>(address, val);
}
