// CUDA's atomicAdd on half precision: a dot product accumulated into one __half, and a packed
// update of __half2 pairs. No HIP release has atomicAdd(__half*, __half) or
// atomicAdd(__half2*, __half2); the output includes Ferry's compat header ferry/compat/fp16_atomic.h.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include <cstdio>
#include "ferry/compat/fp16_atomic.h"

__global__ void dot(const half* a, const half* b, half* out, int n) {
  half sum = __float2half(0.0f);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum = __hadd(sum, __hmul(a[i], b[i]));
  atomicAdd(out, sum);
}

__global__ void scatter_pairs(half2* acc, const half2* v, const int* slot, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&acc[slot[i]], v[i]);
}

__global__ void count(int* hits) { atomicAdd(hits, 1); }  // HIP's own int overload

int main() {
  half* out;
  hipMalloc(&out, sizeof(half));
  hipMemset(out, 0, sizeof(half));
  dot<<<4, 128>>>(out, out, out, 0);
  hipDeviceSynchronize();
  hipFree(out);
  return 0;
}
