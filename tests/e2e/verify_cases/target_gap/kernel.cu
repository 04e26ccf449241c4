// Valid CUDA that reads what HIP 5.2 lacks and migration leaves as written: a device property
// member (hipDeviceProp_t::unifiedAddressing, ROCm 6.0 on) and a cooperative-groups tile member
// (thread_block_tile::meta_group_rank, ROCm 5.7 on). verify: target-gap, not migration-defect.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void tile_ids(unsigned* out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = tile.meta_group_rank();
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("unified addressing: %d\n", prop.unifiedAddressing);
  unsigned* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  tile_ids<<<1, 64>>>(out);
  cudaFree(out);
  return 0;
}
