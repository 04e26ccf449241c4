// WMMA kernels in the one-warp-per-wavefront form (docs/wave64.md, WMMA), with the other ways
// of writing a warp index, a lane and a block that the fixer rewrites: `>> 5`, `& 31`, a
// dim3(...) block, a constexpr block size, CUDA's warpSize as a stride (it stays 32), launches as
// hipLaunchKernelGGL (args: --launch ggl).
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include <rocwmma/rocwmma.hpp>

namespace wmma = rocwmma;

constexpr int kTile = 16;
constexpr int kWarps = 4;

// Warp w of the block copies its bias tile (lane l: elements l, l + 32, ...) and owns tile w.
__global__ void bias_gemm(const half *a, const half *b, const float *bias, float *d, int k) {
  const int warp = threadIdx.x >> 6 /* ferry-cuda: 5 */;
  const int lane = threadIdx.x & 31;
  const int row0 = (blockIdx.x * kWarps + warp) * kTile;
  for (int c = lane; c < kTile * kTile; c += 32 /* ferry-cuda: warpSize */) d[row0 * kTile + c] = bias[c];
  rocwmma::fragment<rocwmma::matrix_a, kTile, kTile, kTile, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, kTile, kTile, kTile, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, kTile, kTile, kTile, float> acc;
  rocwmma::load_matrix_sync(acc, d + row0 * kTile, kTile, rocwmma::mem_row_major);
  for (int kk = 0; kk < k; kk += kTile) {
    rocwmma::load_matrix_sync(fa, a + row0 * k + kk, k);
    rocwmma::load_matrix_sync(fb, b + kk, k);
    rocwmma::mma_sync(acc, fa, fb, acc);
  }
  rocwmma::store_matrix_sync(d + row0 * kTile, acc, kTile, rocwmma::mem_row_major);
}

// A 2-D block: warp (x / 32, y) owns tile (blockIdx.x * blockDim.x / 32 + x / 32, y).
__global__ void grid_gemm(const half *a, const half *b, float *d, int n, int k) {
  const int tm = blockIdx.x * (blockDim.x / 64 /* ferry-cuda: 32 */) + threadIdx.x / 64 /* ferry-cuda: 32 */;
  const int tn = blockIdx.y * blockDim.y + threadIdx.y;
  rocwmma::fragment<rocwmma::matrix_a, kTile, kTile, kTile, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, kTile, kTile, kTile, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, kTile, kTile, kTile, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  for (int kk = 0; kk < k; kk += kTile) {
    rocwmma::load_matrix_sync(fa, a + tm * kTile * k + kk, k);
    rocwmma::load_matrix_sync(fb, b + tn * kTile * k + kk, k);
    rocwmma::mma_sync(acc, fa, fb, acc);
  }
  rocwmma::store_matrix_sync(d + tm * kTile * n + tn * kTile, acc, n, rocwmma::mem_row_major);
}

void run_bias(const half *a, const half *b, const float *bias, float *d, int m, int k) {
  constexpr int threads = kWarps * 32;
  hipLaunchKernelGGL(bias_gemm, m / (kWarps * kTile), 2 * (threads) /* ferry-cuda: threads */, 0, 0, a, b, bias, d, k);
}

void run_grid(const half *a, const half *b, float *d, int m, int n, int k) {
  // the host counts 32-thread warps of the block it wrote: it stays as it is
  hipLaunchKernelGGL(bias_gemm, 1, 2 * (kWarps * 32) /* ferry-cuda: kWarps * 32 */, 0, 0, a, b, d, d, k);
  hipLaunchKernelGGL(grid_gemm, dim3(m / (kTile * 64 / 32), n / (kTile * 2)), dim3(2 * (64), 2) /* ferry-cuda: dim3(64, 2) */, 0, 0, a, b, d, n, k);
}
