// thread_block_tile::meta_group_rank() and meta_group_size() (HIP: ROCm 5.7 on) on tiles a
// function makes of its thread block (cuda-samples reduction, shfl_scan, conjugateGradient*CG):
// for HIP 5.2 they become the block's rank over the tile size and the tile count, which is what
// CUDA defines them to be.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

#define TILE 16

__device__ float block_sum(const cg::thread_block &cta, float *partial, float v) {
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  for (int i = tile32.size() / 2; i > 0; i /= 2) v += tile32.shfl_down(v, i);
  if (tile32.thread_rank() == 0) partial[(cta.thread_rank() / 32) /* ferry-cuda: tile32.meta_group_rank() */] = v;
  cg::sync(cta);
  if ((cta.thread_rank() / 32) /* ferry-cuda: tile32.meta_group_rank() */ == 0) {
    v = tile32.thread_rank() < ((cta.size() + 32 - 1) / 32) /* ferry-cuda: tile32.meta_group_size() */ ? partial[tile32.thread_rank()] : 0.0f;
    for (int i = tile32.size() / 2; i > 0; i /= 2) v += tile32.shfl_down(v, i);
  }
  return v;
}

__global__ void tiles(unsigned *rank, unsigned *count) {
  const auto cta = cg::this_thread_block();
  const auto tile = cg::tiled_partition<TILE * 2>(cta);
  auto direct = cg::tiled_partition<TILE>(cg::this_thread_block());
  rank[threadIdx.x] = (cta.thread_rank() / (TILE * 2)) /* ferry-cuda: tile.meta_group_rank() */ * 100 + (cg::this_thread_block().thread_rank() / TILE) /* ferry-cuda: direct.meta_group_rank() */;
  count[threadIdx.x] = ((cta.size() + (TILE * 2) - 1) / (TILE * 2)) /* ferry-cuda: tile.meta_group_size() */ * 100 + ((cg::this_thread_block().size() + TILE - 1) / TILE) /* ferry-cuda: direct.meta_group_size() */;
}

__global__ void sum(const float *in, float *out) {
  __shared__ float partial[32];
  cg::thread_block cta = cg::this_thread_block();
  const float v = block_sum(cta, partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (cta.thread_rank() == 0) out[blockIdx.x] = v;
}

// In a namespace: each function's own tiles. A tile parameter's parent is unknown, so its call is
// left as written (HIP 5.2 lacks it: verify's target-gap).
namespace detail {
__device__ unsigned first(const cg::thread_block &cta) {
  auto t = cg::tiled_partition<32>(cta);
  return (cta.thread_rank() / 32) /* ferry-cuda: t.meta_group_rank() */;
}
__device__ unsigned second(const cg::thread_block_tile<32> &t) {
#ifdef GOLDEN_NOT_COMPILED
  return t.meta_group_rank();
#endif
  return 0;
}
}  // namespace detail
