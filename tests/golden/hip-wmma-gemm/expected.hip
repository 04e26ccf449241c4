// A small half-precision GEMM on tensor cores, written the way CUDA samples count warps:
// each 32-thread warp owns one 16x16 tile of D, and the host sizes the grid from warps per block.
#include <cstdio>
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include <rocwmma/rocwmma.hpp>

namespace wmma = rocwmma;

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 4
#define THREADS_PER_BLOCK (WARP_SIZE * WARPS_PER_BLOCK)
#define TILE 16

// One warp per 16x16 output tile; a block of blockDim.x threads covers blockDim.x / 32 tiles in M.
__global__ void tile_gemm(const half *a, const half *b, float *d, int m, int n, int k) {
  const int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / 64 /* ferry-cuda: WARP_SIZE */;
  const int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
  rocwmma::fragment<rocwmma::matrix_a, TILE, TILE, TILE, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, TILE, TILE, TILE, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, TILE, TILE, TILE, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  if (warp_m * TILE >= m || warp_n * TILE >= n) return;
  for (int kk = 0; kk < k; kk += TILE) {
    rocwmma::load_matrix_sync(fa, a + warp_m * TILE * k + kk, k);
    rocwmma::load_matrix_sync(fb, b + warp_n * TILE * k + kk, k);
    rocwmma::mma_sync(acc, fa, fb, acc);
  }
  rocwmma::store_matrix_sync(d + warp_m * TILE * n + warp_n * TILE, acc, n, rocwmma::mem_row_major);
}

// Each warp of a 128-thread block owns one tile of a 64x16 block tile; its lanes copy C rows.
__global__ void block_gemm(const half *a, const half *b, const float *c, float *d, int k) {
  const unsigned warp_id = threadIdx.x / 64 /* ferry-cuda: WARP_SIZE */;
  const unsigned lane_id = threadIdx.x % WARP_SIZE;
  const int row0 = (blockIdx.x * WARPS_PER_BLOCK + warp_id) * TILE;
  for (int r = 0; r < TILE; r++)
    if (lane_id < TILE) d[(row0 + r) * TILE + lane_id] = c[(row0 + r) * TILE + lane_id];
  rocwmma::fragment<rocwmma::matrix_a, TILE, TILE, TILE, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, TILE, TILE, TILE, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, TILE, TILE, TILE, float> acc;
  rocwmma::load_matrix_sync(acc, d + row0 * TILE, TILE, rocwmma::mem_row_major);
  for (int kk = 0; kk < k; kk += TILE) {
    rocwmma::load_matrix_sync(fa, a + row0 * k + kk, k);
    rocwmma::load_matrix_sync(fb, b + kk, k);
    rocwmma::mma_sync(acc, fa, fb, acc);
  }
  rocwmma::store_matrix_sync(d + row0 * TILE, acc, TILE, rocwmma::mem_row_major);
}

int main() {
  const int m = 256, n = 256, k = 64;
  half *a, *b;
  float *d;
  hipMalloc(&a, sizeof(half) * m * k);
  hipMalloc(&b, sizeof(half) * n * k);
  hipMalloc(&d, sizeof(float) * m * n);
  dim3 gridDim;
  dim3 blockDim;
  blockDim.x = 128;
  blockDim.y = 4;
  gridDim.x = (m + (TILE * blockDim.x / 32 - 1)) / (TILE * blockDim.x / 32);
  gridDim.y = (n + TILE * blockDim.y - 1) / (TILE * blockDim.y);
  tile_gemm<<<gridDim, dim3(2 * blockDim.x, blockDim.y, blockDim.z) /* ferry-cuda: blockDim */>>>(a, b, d, m, n, k);
  block_gemm<<<m / (WARPS_PER_BLOCK * TILE), 2 * (THREADS_PER_BLOCK) /* ferry-cuda: THREADS_PER_BLOCK */>>>(a, b, d, d, k);
  hipDeviceSynchronize();
  printf("%d warps per block\n", blockDim.x * blockDim.y / WARP_SIZE);
  hipFree(a);
  hipFree(b);
  hipFree(d);
  return 0;
}
