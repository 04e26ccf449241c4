// Function-like macros named like warp intrinsics (old code keeping the pre-CUDA-9 names on top
// of the _sync ones). A call `__shfl_down(v, o)` is a macro invocation with the macro's two
// parameters: a width added there is one argument too many. The wave64 fix writes the width (and
// the index shuffle's modulo) into the macro's body instead, once, whichever form applies: rows of
// 32 (row_sum, launched with dim3(32, rows)) or logical 32-lane warps (stats, launched through a
// dispatch macro with blocks of 32 or 256, where WARP_SIZE is also a tile side).
#include <hip/hip_runtime.h>
#include "ferry/compat/minmax.h"

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff
#define __shfl(v, s) __shfl(/* ferry-cuda: __shfl_sync(FULL_MASK,  */ v, ((s) & 31), 32 /* ferry-cuda: (none) */)
#define __shfl_down(v, d) __shfl_down(/* ferry-cuda: __shfl_down_sync(FULL_MASK,  */ v, d, 32 /* ferry-cuda: (none) */)
#define __shfl_xor(v, m) __shfl_xor(/* ferry-cuda: __shfl_xor_sync(FULL_MASK,  */ v, m, 32 /* ferry-cuda: (none) */)

__global__ void row_sum(const float* in, float* out) {
  float v = in[threadIdx.y * 32 + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down /* ferry-cuda: __shfl_down */(v, o);
  v = __shfl /* ferry-cuda: __shfl */(v, 0);
  if (threadIdx.x == 0) out[threadIdx.y] = v;
}

__device__ int warp_max(int v) {
  for (int o = WARP_SIZE / 2; o > 0; o >>= 1) v = max(v, __shfl_xor /* ferry-cuda: __shfl_xor */(v, o));
  return v;
}

template <int K>
__global__ void stats(const int* in, int* out) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int i = blockIdx.x * K + threadIdx.x;
  const int m = warp_max(in[i]);
  const int next = __shfl /* ferry-cuda: __shfl */(in[i], lane + 1);
  if (lane == 0) atomicAdd(out, m + next);
}

__global__ void transpose(const int* in, int* out) {
  __shared__ int tile[WARP_SIZE][WARP_SIZE + 1];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * WARP_SIZE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * WARP_SIZE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

#define LAUNCH_STATS(K) stats<(K)><<<n / (K), dim3((K))>>>(in, out)

void run(const float* fin, float* fout, const int* in, int* out, int n, int k, int rows) {
  row_sum<<<1, dim3(32, rows)>>>(fin, fout);
  switch (k) {
    case 32: LAUNCH_STATS(32); break;
    case 256: LAUNCH_STATS(256); break;
  }
  transpose<<<1, dim3(WARP_SIZE, WARP_SIZE)>>>(in, out);
}
