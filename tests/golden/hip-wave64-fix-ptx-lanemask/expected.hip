// A lane mask read through inline PTX (%lanemask_lt) in a kernel the wave64 fix rewrites: the hip
// target turns the asm into `m = (1ull << __lane_id()) - 1`, so the planner widens m as it would
// a mask written that way, and migrating the output again changes nothing.
#include <hip/hip_runtime.h>

__global__ void rank_positive(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool hit = in[i] > 0;
  unsigned long long /* ferry-cuda: unsigned int */ ballot = __ballot(hit);
  unsigned long long /* ferry-cuda: unsigned */ lanes_below;
  (lanes_below = (1ull << __lane_id()) - 1) /* ferry-cuda: asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lanes_below)) */;
  if (hit) out[i] = __popcll /* ferry-cuda: __popc */(ballot & lanes_below);
}
