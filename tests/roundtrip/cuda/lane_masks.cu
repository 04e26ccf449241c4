#include <cuda_runtime.h>

// Compacts the positive values of each warp: a lane's slot is the number of lanes below it
// that hold one.
__global__ void compact(const int *in, int *out, int *count, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane_id = threadIdx.x % 32;
  const bool keep = i < n && in[i] > 0;
  const unsigned int vote = __ballot_sync(0xffffffff, keep);
  int lane_mask_lt = (1 << lane_id) - 1;
  if (keep) out[blockIdx.x * blockDim.x + (threadIdx.x & ~31) + __popc(vote & lane_mask_lt)] = in[i];
  if (lane_id == 0) atomicAdd(count, __popc(vote));
}
