// WMMA kernels in the one-warp-per-wavefront form (docs/wave64.md, WMMA), with the other ways
// of writing a warp index, a lane and a block that the fixer rewrites: `>> 5`, `& 31`, a
// dim3(...) block, a constexpr block size, CUDA's warpSize as a stride (it stays 32), launches as
// hipLaunchKernelGGL (args: --launch ggl).
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int kTile = 16;
constexpr int kWarps = 4;

// Warp w of the block copies its bias tile (lane l: elements l, l + 32, ...) and owns tile w.
__global__ void bias_gemm(const half *a, const half *b, const float *bias, float *d, int k) {
  const int warp = threadIdx.x >> 5;
  const int lane = threadIdx.x & 31;
  const int row0 = (blockIdx.x * kWarps + warp) * kTile;
  for (int c = lane; c < kTile * kTile; c += warpSize) d[row0 * kTile + c] = bias[c];
  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> acc;
  wmma::load_matrix_sync(acc, d + row0 * kTile, kTile, wmma::mem_row_major);
  for (int kk = 0; kk < k; kk += kTile) {
    wmma::load_matrix_sync(fa, a + row0 * k + kk, k);
    wmma::load_matrix_sync(fb, b + kk, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + row0 * kTile, acc, kTile, wmma::mem_row_major);
}

// A 2-D block: warp (x / 32, y) owns tile (blockIdx.x * blockDim.x / 32 + x / 32, y).
__global__ void grid_gemm(const half *a, const half *b, float *d, int n, int k) {
  const int tm = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int tn = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int kk = 0; kk < k; kk += kTile) {
    wmma::load_matrix_sync(fa, a + tm * kTile * k + kk, k);
    wmma::load_matrix_sync(fb, b + tn * kTile * k + kk, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * kTile * n + tn * kTile, acc, n, wmma::mem_row_major);
}

void run_bias(const half *a, const half *b, const float *bias, float *d, int m, int k) {
  constexpr int threads = kWarps * 32;
  bias_gemm<<<m / (kWarps * kTile), threads>>>(a, b, bias, d, k);
}

void run_grid(const half *a, const half *b, float *d, int m, int n, int k) {
  // the host counts 32-thread warps of the block it wrote: it stays as it is
  bias_gemm<<<1, kWarps * 32>>>(a, b, d, d, k);
  grid_gemm<<<dim3(m / (kTile * 64 / 32), n / (kTile * 2)), dim3(64, 2)>>>(a, b, d, n, k);
}
