// A header that uses half types and includes no fp16 header: under nvcc every .cu including it
// got cuda_fp16.h first. Ferry adds <hip/hip_fp16.h> (FRY1310), recorded so that HIP -> CUDA
// drops it. `half` as a variable name below is not a use of the type.
#pragma once
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h> /* ferry-cuda: (none) */

struct Pair {
  half lo;
  half2 both;
};

__device__ inline float widen(const __half* p, int i) {
  int half = i / 2;
  return __half2float(p[half]);
}

template <typename T>
__device__ T scale(T v, float s);

template <>
__device__ inline half scale<half>(half v, float s) {
  return __float2half(__half2float(v) * s);
}
