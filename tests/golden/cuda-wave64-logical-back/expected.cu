// What `ferry migrate --to hip` writes for a component it keeps as logical 32-lane warps (each half
// of a 64-lane wavefront one CUDA warp) comes back as the CUDA it was written from: ballots and
// votes of the half are CUDA's, widths and source masks the fix added go, its recorded 32 is warpSize.
#include <cuda_runtime.h>

__device__ int warp_max(int v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

__global__ void stats(const int* in, int* out, int width) {
  const int lane = threadIdx.x % 32;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int m = warp_max(in[i]);
  const int next = __shfl_sync(0xffffffff, in[i], lane + 1);
  const int own = __shfl_sync(0xffffffff, in[i], ((lane + 2) & 31), 32);  // a width the code had: stays
  const int up = __shfl_up_sync(0xffffffff, in[i], 1, width);
  const unsigned hits = __ballot_sync(0xffffffff, in[i] > m / 2);
  const unsigned active = __activemask();
  const int any = __any_sync(0xffffffff, in[i] < 0);
  const int all = __all_sync(0xffffffff, in[i] < m + 1);
  const unsigned long long wide = __ballot_sync(0xffffffff, in[i] > 0);  // HIP's own ballot: the ballot pass's
  if (lane == 0) atomicAdd(out, m + next + own + up + __popc(hits) + __popc(active) + any + all + (int)wide);
}
