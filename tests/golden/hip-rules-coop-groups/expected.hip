// Cooperative groups: a block-level reduction with thread_block and a tiled partition.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>
/* ferry-cuda: #include <cuda_runtime.h> */

namespace cg = cooperative_groups;

__global__ void block_sum(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.f;
  block.sync();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    block.sync();
  }
  if (block.thread_rank() == 0) atomicAdd(out, partial[0]);
}
