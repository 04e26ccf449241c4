// Golden case of the wave64 lane-math fix for FRY2203 (the same kernel runs in
// tests/e2e/test_wave64_fixes.sh, wrong at wave 64 without the fix and right with it).
#include <hip/hip_runtime.h>

#define THREADS 256

// FRY2203: a lane bit in 32 bits, packing the positive values of each warp to its front
// (a warp-level stream compaction); the packed values are summed and counted.
__global__ void k2203(const int* in, int* out) {
  __shared__ int packed[THREADS];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int first = threadIdx.x - lane;
  packed[threadIdx.x] = 0;
  __syncthreads();
  const bool hit = in[i] > 0;
  const unsigned long long ballot = __ballot(hit);
  const unsigned long long below = ballot & ((1ull /* ferry-cuda: 1u */ << lane) - 1);
  if (hit) packed[first + __popcll(below)] = in[i];
  __syncthreads();
  if (lane < __popcll(ballot)) {
    atomicAdd(out, packed[first + lane]);
    atomicAdd(out + 1, 1);
  }
}
