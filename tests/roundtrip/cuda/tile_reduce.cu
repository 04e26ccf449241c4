// A block reduction over 32-thread tiles: meta_group_rank/size are what HIP releases before
// ROCm 5.7 lack, and the round trip must give them back as written.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float *in, float *out) {
  __shared__ float partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
    for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
    if (warp.thread_rank() == 0) out[blockIdx.x] = v;
  }
}
