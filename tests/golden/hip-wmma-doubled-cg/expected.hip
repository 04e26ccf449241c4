// Cooperative groups in WMMA kernels fixed as one CUDA warp per wavefront (docs/wave64.md, WMMA):
// the block group only synchronised or waited on, and tiles of at most 32 threads of it (their
// ranks, sizes, syncs and shuffles), as in cuda-samples' dmmaTensorCoreGemm, keep the form sound: a
// tile never crosses a CUDA warp, so the clones form tiles of their own that mirror the originals.
// The block's own ranks count the doubled block: that kernel is left with its warnings. Each
// kernel has its own launcher and literal 32s, so each is a component of its own.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_fp16.h>
#include <rocwmma/rocwmma.hpp>

namespace wmma = rocwmma;
namespace cg = cooperative_groups;

#if SMALL_COPIES
#define COPY_LINES 4
#else
#define COPY_LINES 2
#endif

__global__ void tiled_gemm(const half *a, const half *b, float *d, int k) {
  __shared__ half stage[4][16 * 16];
  auto cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  // a tile size Ferry bounds without its value: 32 / COPY_LINES (two definitions) is at most 32
  constexpr int copy_size = 32 / COPY_LINES;
  auto copy_tile = cg::tiled_partition<copy_size>(cta);
  const int warp = threadIdx.x / 64 /* ferry-cuda: 32 */;
  for (int i = tile32.thread_rank(); i < 16 * 8; i += tile32.size()) stage[warp][i] = a[(blockIdx.x * 4 + warp) * 256 + i];
  for (int i = 16 * 8 + copy_tile.thread_rank(); i < 16 * 16; i += copy_tile.size())
    stage[warp][i] = a[(blockIdx.x * 4 + warp) * 256 + i];
  tile32.sync();
  cg::sync(cta);
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, stage[warp], 16);
  rocwmma::load_matrix_sync(fb, b, k);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + (blockIdx.x * 4 + warp) * 256, acc, 16, rocwmma::mem_row_major);
}

// The block's thread_rank() counts the doubled block's threads: left as written.
__global__ void ranked_gemm(const half *a, const half *b, float *d, int *first) {
  auto block = cg::this_thread_block();
  const int warp = threadIdx.x / 32;
  if (block.thread_rank() == 0) first[blockIdx.x] = warp;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + (blockIdx.x * 4 + warp) * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + (blockIdx.x * 4 + warp) * 256, acc, 16, rocwmma::mem_row_major);
}

void run_tiled(const half *a, const half *b, float *d, int k) { tiled_gemm<<<8, 2 * (128) /* ferry-cuda: 128 */>>>(a, b, d, k); }
void run_ranked(const half *a, const half *b, float *d, int *first) { ranked_gemm<<<8, 128>>>(a, b, d, first); }
