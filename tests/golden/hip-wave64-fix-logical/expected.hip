// Logical 32-lane warps: this component cannot move to warpSize (a dispatch macro launches it with
// blocks of 32, and WARP_SIZE is also a tile side), so it keeps its 32-lane warps, each half of a
// 64-lane wavefront one: shuffles get the width 32 (an index shuffle's source modulo the width),
// ballots and __activemask take their half, __any/__all become ballots of the half, warpSize is 32.
#include <hip/hip_runtime.h>
#include "ferry/compat/minmax.h"

#define WARP_SIZE 32

__device__ int warp_max(int v) {
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1) v = max(v, __shfl_xor(v, o, 32 /* ferry-cuda: (none) */));
  return v;
}

template <int K>
__global__ void stats(const int* in, int* out, int width) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int i = blockIdx.x * K + threadIdx.x;
  const int m = warp_max(in[i]);
  const int first = __shfl(in[i], 0, 32 /* ferry-cuda: (none) */);
  const int next = __shfl(in[i], ((lane + 1) & 31), 32 /* ferry-cuda: (none) */);
  const int up = __shfl_up(in[i], 1, width);
  const int quad = __shfl_down(in[i], 1, 16);
  const unsigned hits = ((unsigned)(__ballot(in[i] > m / 2) >> (__lane_id() & 32)));
  const unsigned active = ((unsigned)(__ballot(1) >> (__lane_id() & 32)));
  const int any = (0u != (unsigned)(__ballot(in[i] < 0) >> (__lane_id() & 32)));
  const int all = (0u == (unsigned)(__ballot(!(in[i] < m + 1)) >> (__lane_id() & 32)));
  const int lanes = 32 /* ferry-cuda: warpSize */;
  if (lane == 0)
    atomicAdd(out, m + first + next + up + quad + __popc(hits) + __popc(active) + any + all + lanes);
}

__global__ void transpose(const int* in, int* out) {
  __shared__ int tile[WARP_SIZE][WARP_SIZE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * WARP_SIZE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * WARP_SIZE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

#define LAUNCH_STATS(K) stats<(K)><<<n / (K), dim3((K))>>>(in, out, 32)

void run(const int* in, int* out, int n, int k) {
  switch (k) {
    case 32: LAUNCH_STATS(32); break;
    case 256: LAUNCH_STATS(256); break;
  }
  transpose<<<1, dim3(WARP_SIZE, WARP_SIZE)>>>(in, out);
}
