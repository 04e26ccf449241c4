// cooperative_groups::reduce over a tile. HIP's cooperative groups have no reduce: the include
// becomes Ferry's compat header, which defines it for thread_block_tile<N>.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>
#include "ferry/compat/coop_reduce.h"

namespace cg = cooperative_groups;

__global__ void row_sums(const float* in, float* out, int* widest) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float sum = cg::reduce(tile, v, cg::plus<float>());
  int rank = cg::reduce(tile, static_cast<int>(tile.thread_rank()), cg::greater<int>());
  if (tile.thread_rank() == 0) {
    out[blockIdx.x * (blockDim.x / tile.size()) + threadIdx.x / tile.size()] = sum;
    atomicMax(widest, rank);
  }
}
