// Valid CUDA that reads what HIP 5.2 lacks and migration leaves as written: a device property
// member (hipDeviceProp_t::unifiedAddressing, ROCm 6.0 on) of a struct's member, which the
// device_prop pass does not follow (it rewrites a variable's), and a cooperative-groups tile member
// (thread_block_tile::meta_group_rank, ROCm 5.7 on) of a tile passed as a parameter, which the
// tile_meta pass does not compute (it does the tiles a function makes of a thread block).
// verify: target-gap, not migration-defect.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ unsigned group_of(const cg::thread_block_tile<32>& tile) { return tile.meta_group_rank(); }

__global__ void tile_ids(unsigned* out) { out[threadIdx.x] = group_of(cg::tiled_partition<32>(cg::this_thread_block())); }

struct Device {
  cudaDeviceProp prop;
};

int main() {
  Device d;
  cudaGetDeviceProperties(&d.prop, 0);
  std::printf("unified addressing: %d\n", d.prop.unifiedAddressing);
  unsigned* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  tile_ids<<<1, 64>>>(out);
  cudaFree(out);
  return 0;
}
