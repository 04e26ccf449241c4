// Tile shuffles of vector values (CUDA's thread_block_tile::shfl* take any type, HIP's scalars
// only) and of scalars (left to HIP's member).
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>
#include "ferry/compat/tile_shfl.h"
namespace cg = cooperative_groups;

struct packed {
  uint4 x, y;
};

__global__ void k(const uint4 *in, uint4 *out, float2 *f) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  packed r;
  r.x = in[threadIdx.x];
  r.y = ferry_tile_shfl_xor(tile, r.x, 1);
  float2 v = f[threadIdx.x];
  v = ferry_tile_shfl_down(tile, v, 2);
  unsigned int sum = r.x.x;
  for (int i = 1; i < 32; i *= 2) sum += tile.shfl_up(sum, i);
  out[threadIdx.x] = r.y;
  f[threadIdx.x] = ferry_tile_shfl(tile, v, 0);
  out[threadIdx.x].x += sum;
}
