#pragma once
#include <cuda_runtime.h>

#define WARP_SIZE 32  // lanes per warp
#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_max(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
  return v;
}
