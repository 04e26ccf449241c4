// WMMA kernels in cuda-samples' structure (cudaTensorCoreGemm: warps counted with WARP_SIZE, the
// host sizing the grid from warps per block), fixed in the one-warp-per-wavefront form
// (docs/wave64.md, "WMMA": the launches double the block in x, warp indices count 64 threads,
// lanes stay % 32). tests/e2e/test_wave64_fixes.sh runs it like kinds.cu on the wave64 runtime,
// whose fragments are modelled collectively over the wavefront (runtime/wave64/include/wave64/
// wmma.h): as CUDA at warp 32 (the reference), migrated without the fixes at wave 64 (must
// differ: two CUDA warps share a wavefront and mix their tiles) and at wave 32 (must match), and
// with the fixes at wave 64 and 32 (must match).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;
namespace cg = cooperative_groups;

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 4
#define THREADS_PER_BLOCK (WARP_SIZE * WARPS_PER_BLOCK)
#define TILE 16
#define M 128
#define N 64
#define K 32

// KW1: each warp of a block owns one 16x16 tile of D (16 columns wide); its lanes copy the tile's
// C into D, then D += A * B tile by tile.
__global__ void block_gemm(const half *a, const half *b, const float *c, float *d) {
  const unsigned int warpId = threadIdx.x / WARP_SIZE;
  const unsigned int laneId = threadIdx.x % WARP_SIZE;
  const int row0 = (blockIdx.x * WARPS_PER_BLOCK + warpId) * TILE;
  for (int i = laneId; i < TILE * TILE; i += WARP_SIZE) d[row0 * TILE + i] = c[row0 * TILE + i];
  wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc;
  wmma::load_matrix_sync(acc, d + row0 * TILE, TILE, wmma::mem_row_major);
  for (int kk = 0; kk < K; kk += TILE) {
    wmma::load_matrix_sync(fa, a + row0 * K + kk, K);
    wmma::load_matrix_sync(fb, b + kk, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + row0 * TILE, acc, TILE, wmma::mem_row_major);
}

// KW2: cuda-samples' simple_wmma_gemm: a 2-D block, the warp's tile row from the global thread
// index over warpSize, the grid from the warps per block.
__global__ void simple_wmma_gemm(const half *a, const half *b, float *d) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  if (warpM * TILE >= M || warpN * TILE >= N) return;
  for (int kk = 0; kk < K; kk += TILE) {
    wmma::load_matrix_sync(fa, a + warpM * TILE * K + kk, K);
    wmma::load_matrix_sync(fb, b + warpN * TILE * K + kk, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + warpM * TILE * N + warpN * TILE, acc, N, wmma::mem_row_major);
}

// KW3: dmmaTensorCoreGemm's cooperative groups: the block group, synchronised, and a 32-thread tile
// per warp whose ranks stage the warp's A rows and C tile in shared memory (dmma does it with
// cg::memcpy_async over the tile, which HIP lacks); the fragments are loaded from the staged copies.
__global__ void staged_gemm(const half *a, const half *b, const float *c, float *d) {
  __shared__ float stage_c[WARPS_PER_BLOCK][TILE * TILE];
  __shared__ half stage_a[WARPS_PER_BLOCK][TILE * K];
  auto cta = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(cta);
  const unsigned int warpId = threadIdx.x / WARP_SIZE;
  const int row0 = (blockIdx.x * WARPS_PER_BLOCK + warpId) * TILE;
  for (int i = tile32.thread_rank(); i < TILE * TILE; i += tile32.size()) stage_c[warpId][i] = c[row0 * TILE + i];
  tile32.sync();
  for (int i = tile32.thread_rank(); i < TILE * K; i += tile32.size()) stage_a[warpId][i] = a[row0 * K + i];
  cg::sync(cta);
  wmma::fragment<wmma::matrix_a, TILE, TILE, TILE, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, TILE, TILE, TILE, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, TILE, TILE, TILE, float> acc;
  wmma::load_matrix_sync(acc, stage_c[warpId], TILE, wmma::mem_row_major);
  for (int kk = 0; kk < K; kk += TILE) {
    wmma::load_matrix_sync(fa, stage_a[warpId] + kk, K);
    wmma::load_matrix_sync(fb, b + kk, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + row0 * TILE, acc, TILE, wmma::mem_row_major);
}

// A weighted sum of D (small integers: exact in float) and its mismatches against the host's.
static void report(const char *name, const float *d, const float *want, int n) {
  double sum = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    sum += d[i] * (i % 7 + 1);
    bad += d[i] != want[i];
  }
  printf("%s %.1f %d\n", name, sum, bad);
}

int main() {
  static half ha[M * K], hb[N * K];
  static float hc[M * TILE], want1[M * TILE], want2[M * N], out1[M * TILE], out2[M * N], out3[M * TILE];
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) ha[i * K + k] = static_cast<float>((i * 3 + k) % 5 - 2);
  for (int j = 0; j < N; ++j)  // B is K x N, column-major: element (k, j) at j * K + k
    for (int k = 0; k < K; ++k) hb[j * K + k] = static_cast<float>((j + 2 * k) % 3 - 1);
  for (int i = 0; i < M * TILE; ++i) hc[i] = static_cast<float>(i % 11);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += static_cast<float>(ha[i * K + k]) * static_cast<float>(hb[j * K + k]);
      want2[i * N + j] = s;
      if (j < TILE) want1[i * TILE + j] = s + hc[i * TILE + j];
    }
  half *a, *b;
  float *c, *d1, *d2, *d3;
  cudaMalloc(&a, sizeof(ha));
  cudaMalloc(&b, sizeof(hb));
  cudaMalloc(&c, sizeof(hc));
  cudaMalloc(&d1, sizeof(out1));
  cudaMalloc(&d2, sizeof(out2));
  cudaMalloc(&d3, sizeof(out3));
  cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice);
  cudaMemcpy(c, hc, sizeof(hc), cudaMemcpyHostToDevice);
  cudaMemset(d1, 0, sizeof(out1));
  cudaMemset(d2, 0, sizeof(out2));
  cudaMemset(d3, 0, sizeof(out3));

  block_gemm<<<M / (WARPS_PER_BLOCK * TILE), THREADS_PER_BLOCK>>>(a, b, c, d1);
  staged_gemm<<<M / (WARPS_PER_BLOCK * TILE), THREADS_PER_BLOCK>>>(a, b, c, d3);

  // cuda-samples names these gridDim and blockDim; the runtime's device built-ins have those names
  dim3 grid;
  dim3 block;
  // block.x must be a multiple of warpSize
  block.x = 64;
  block.y = 2;
  grid.x = (M + (TILE * block.x / 32 - 1)) / (TILE * block.x / 32);
  grid.y = (N + TILE * block.y - 1) / (TILE * block.y);
  simple_wmma_gemm<<<grid, block>>>(a, b, d2);

  cudaMemcpy(out1, d1, sizeof(out1), cudaMemcpyDeviceToHost);
  cudaMemcpy(out2, d2, sizeof(out2), cudaMemcpyDeviceToHost);
  cudaMemcpy(out3, d3, sizeof(out3), cudaMemcpyDeviceToHost);
  report("KW1", out1, want1, M * TILE);
  report("KW2", out2, want2, M * N);
  report("KW3", out3, want1, M * TILE);
  return 0;
}
