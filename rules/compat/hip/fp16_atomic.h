// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/fp16_atomic.h.
// CUDA's atomicAdd on half precision, atomicAdd(__half*, __half) and atomicAdd(__half2*, __half2),
// which HIP's headers lack (checked up to ROCm 6.2).
//
// Semantics (CUDA C++ Programming Guide, atomicAdd): reads the value at `address`, stores
// old + val, and returns old; the addition rounds to nearest even, as __hadd / __hadd2 do.
// For __half2 CUDA guarantees atomicity for each of the two halves separately; here the whole
// 32-bit word is updated at once, which is at least as strong.
//
// How: a compare-and-swap loop on the aligned 32-bit word that holds the value (a __half sits in
// its low or high 16 bits; the other half of the word is written back unchanged). Both functions
// are templates that accept exactly __half* / __half2*, so an exact non-template overload a later
// HIP release may define always wins over them: the header is safe with any HIP.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

namespace ferry_compat_fp16_atomic {

template <class T>
struct only_half {};
template <>
struct only_half<__half> {
  typedef __half type;
};
template <class T>
struct only_half2 {};
template <>
struct only_half2<__half2> {
  typedef __half2 type;
};

__device__ inline unsigned int word_bits(__half2 v) {
  unsigned int u;
  __builtin_memcpy(&u, &v, sizeof u);
  return u;
}
__device__ inline __half2 word_value(unsigned int u) {
  __half2 v;
  __builtin_memcpy(&v, &u, sizeof v);
  return v;
}

}  // namespace ferry_compat_fp16_atomic

template <class T>
__device__ inline typename ferry_compat_fp16_atomic::only_half<T>::type atomicAdd(T* address, __half val) {
  const unsigned long long a = reinterpret_cast<unsigned long long>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(a & ~3ull);
  const unsigned int shift = (a & 2ull) ? 16u : 0u;
  unsigned int old = *word;
  unsigned int assumed;
  do {
    assumed = old;
    const __half cur = __ushort_as_half(static_cast<unsigned short>((assumed >> shift) & 0xffffu));
    const unsigned int sum = __half_as_ushort(__hadd(cur, val));
    const unsigned int next = (assumed & ~(0xffffu << shift)) | (sum << shift);
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  return __ushort_as_half(static_cast<unsigned short>((old >> shift) & 0xffffu));
}

template <class T>
__device__ inline typename ferry_compat_fp16_atomic::only_half2<T>::type atomicAdd(T* address, __half2 val) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word;
  unsigned int assumed;
  do {
    assumed = old;
    const unsigned int next =
        ferry_compat_fp16_atomic::word_bits(__hadd2(ferry_compat_fp16_atomic::word_value(assumed), val));
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  return ferry_compat_fp16_atomic::word_value(old);
}
