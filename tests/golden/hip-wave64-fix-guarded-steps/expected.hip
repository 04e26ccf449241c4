// Golden case of the wave64 lane-math fix for FRY2205 under width guards (the same kernel runs in
// tests/wave64/fixes/kinds.cu under tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without
// the fix and right with it).
#include <hip/hip_runtime.h>

#define THREADS 256

// FRY2205 under width guards, as in the classic unrolled reductions: a butterfly for a group of
// W lanes (a template argument); the whole block's width here, and a group of 8 beside it.
template <unsigned W>
__device__ __forceinline__ int group_sum(int v) {
  for (int ferry_off = warpSize / 2; ferry_off >= 16; ferry_off /= 2) /* ferry-cuda: (none) */ if (W >= (2 * ferry_off) /* ferry-cuda: 32 */) v += __shfl_down(v, ferry_off /* ferry-cuda: 16 */);
  if (W >= 16) v += __shfl_down(v, 8);
  if (W >= 8) v += __shfl_down(v, 4);
  if (W >= 4) v += __shfl_down(v, 2);
  if (W >= 2) v += __shfl_down(v, 1);
  return v;
}
__global__ void k2205g(const int* in, int* out) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int v = group_sum<THREADS>(x);
  const int g = group_sum<8>(x * (int)(threadIdx.x % 8));
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
  if (threadIdx.x % 8 == 0) atomicAdd(out + 1, g);
}
