// Cooperative-groups names HIP lacks, qualified by the namespace or by the alias the file gives it
// (`namespace cg = cooperative_groups;`, as nearly every CUDA sample writes): the coop_groups rules
// apply to them as to unqualified names, so they are reported (FRY1001), not left silently.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void parts(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  out[threadIdx.x] = in[threadIdx.x] + static_cast<int>(tile.thread_rank());
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY1001): HIP 5.2 has neither
  cg::coalesced_group odd = cg::binary_partition(cg::coalesced_threads(), in[threadIdx.x] & 1);
  __shared__ cooperative_groups::block_tile_memory<256> scratch;
#endif
}
