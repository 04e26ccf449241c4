// cooperative groups' thread_block_tile::meta_group_rank() and meta_group_size(), which HIP has
// only from ROCm 5.7: `ferry migrate --hip-version 5.2` writes them as the block's rank over the
// tile size and the tile count. tests/e2e/test_wave64_versions.sh runs this CUDA program and its
// HIP 5.2 port on the wave64 runtime (whose CUDA API has CUDA's members): the output must match.
// Blocks of 96 and 100 threads: whole tiles, and a partial last tile (the reduction, whose
// shuffles would read lanes a partial tile lacks, runs on whole tiles only).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ float block_sum(const cg::thread_block &cta, float *partial, float v) {
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  for (int i = tile32.size() / 2; i > 0; i /= 2) v += tile32.shfl_down(v, i);
  if (tile32.thread_rank() == 0) partial[tile32.meta_group_rank()] = v;
  cg::sync(cta);
  if (tile32.meta_group_rank() == 0) {
    v = tile32.thread_rank() < tile32.meta_group_size() ? partial[tile32.thread_rank()] : 0.0f;
    for (int i = tile32.size() / 2; i > 0; i /= 2) v += tile32.shfl_down(v, i);
  }
  return v;
}

__global__ void tiles(unsigned *rank, unsigned *count) {
  const auto cta = cg::this_thread_block();
  const auto tile = cg::tiled_partition<16>(cta);
  auto quad = cg::tiled_partition<4>(cg::this_thread_block());
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  rank[t] = tile.meta_group_rank() * 100 + quad.meta_group_rank();
  count[t] = tile.meta_group_size() * 100 + quad.meta_group_size();
}

__global__ void sum(const float *in, float *out) {
  __shared__ float partial[32];
  cg::thread_block cta = cg::this_thread_block();
  const float v = block_sum(cta, partial, in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (cta.thread_rank() == 0) out[blockIdx.x] = v;
}

int main() {
  for (int threads : {96, 100}) {
    const int blocks = 3, n = blocks * threads;
    unsigned *rank, *count;
    float *in, *out;
    cudaMallocManaged(&rank, n * sizeof(unsigned));
    cudaMallocManaged(&count, n * sizeof(unsigned));
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, blocks * sizeof(float));
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
    tiles<<<blocks, threads>>>(rank, count);
    for (int b = 0; b < blocks; ++b) out[b] = -1.0f;
    if (threads % 32 == 0) sum<<<blocks, threads>>>(in, out);
    cudaDeviceSynchronize();
    unsigned long long rs = 0, cs = 0;
    for (int i = 0; i < n; ++i) {
      rs = rs * 31 + rank[i];
      cs = cs * 31 + count[i];
    }
    printf("threads %d: rank hash %llu, count hash %llu, last rank %u, count %u, sums %g %g %g\n", threads, rs, cs,
           rank[n - 1], count[n - 1], out[0], out[1], out[2]);
    cudaFree(rank);
    cudaFree(count);
    cudaFree(in);
    cudaFree(out);
  }
  return 0;
}
