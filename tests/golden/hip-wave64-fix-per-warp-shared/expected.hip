// Golden case of the wave64 lane-math fix for FRY2209 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#define N 1024
#define THREADS 256

// FRY2209: one slot per lane and warp, sized for 32 lanes (a lane rotation through shared
// memory); on 64 lanes the rows of neighbouring warps overlap.
__global__ void k2209(const int* in, int* out) {
  __shared__ int slot[THREADS / 32][64 /* ferry-cuda: 32 */];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  slot[warp][lane] = in[i] * N + i;  // distinct, so a lost or doubled value shows in the sum
  __syncthreads();
  atomicAdd(out, slot[warp][(lane + 1) % warpSize]);
}
