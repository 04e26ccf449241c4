// What `ferry migrate --to hip` writes for a component it keeps as logical 32-lane warps (each half
// of a 64-lane wavefront one CUDA warp) comes back as the CUDA it was written from: ballots and
// votes of the half are CUDA's, widths and source masks the fix added go, its recorded 32 is warpSize.
#include <hip/hip_runtime.h>

__device__ int warp_max(int v) {
  for (int o = 32 /* ferry-cuda: warpSize */ / 2; o > 0; o >>= 1) v = max(v, __shfl_xor(v, o, 32 /* ferry-cuda: (none) */));
  return v;
}

__global__ void stats(const int* in, int* out, int width) {
  const int lane = threadIdx.x % 32;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = warp_max(in[i]);
  const int next = __shfl(in[i], ((lane + 1) & 31), 32 /* ferry-cuda: (none) */);
  const int own = __shfl(in[i], ((lane + 2) & 31), 32);  // a width the code had: stays
  const int up = __shfl_up(in[i], 1, width);
  const unsigned hits = ((unsigned)(__ballot(in[i] > m / 2) >> (__lane_id() & 32)));
  const unsigned active = ((unsigned)(__ballot(1) >> (__lane_id() & 32)));
  const int any = (0u != (unsigned)(__ballot(in[i] < 0) >> (__lane_id() & 32)));
  const int all = (0u == (unsigned)(__ballot(!(in[i] < m + 1)) >> (__lane_id() & 32)));
  const unsigned long long wide = __ballot(in[i] > 0);  // HIP's own ballot: the ballot pass's
  if (lane == 0) atomicAdd(out, m + next + own + up + __popc(hits) + __popc(active) + any + all + (int)wide);
}
