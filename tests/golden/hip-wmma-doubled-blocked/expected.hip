// WMMA kernels that the one-warp-per-wavefront form (docs/wave64.md, WMMA) must leave alone: each
// breaks one of its soundness conditions, so the lane math keeps its warnings and the reason.
// Each kernel has its own launcher and literal 32s, so each is a component of its own.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <hip/hip_fp16.h>
#include <rocwmma/rocwmma.hpp>
#include "ferry/compat/fp16_atomic.h"
#include "ferry/compat/fp16_shfl.h"

namespace wmma = rocwmma;

// (1) threadIdx.x is also a thread index: the block stages its A tile with every thread, so a
// doubled block would write past the tile.
__global__ void staged_gemm(const half *a, const half *b, float *d, int k) {
  __shared__ half tile[4 * 16 * 16];
  const int warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 4 * 16 * 16; i += 128) tile[i] = a[blockIdx.x * 4 * 16 * 16 + i];
  __syncthreads();
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, tile + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, k);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + (blockIdx.x * 4 + warp) * 256, acc, 16, rocwmma::mem_row_major);
}

// (2) an atomic: lane 0 counts the tiles done, and its clone (lane 32) would count them again.
__global__ void counted_gemm(const half *a, const half *b, float *d, int *done) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + warp * 256, acc, 16, rocwmma::mem_row_major);
  if (lane == 0) atomicAdd(done, 1);
}

// (2) a cross-lane operation: a shuffle in the same kernel sees the clone lanes.
__global__ void shuffled_gemm(const half *a, const half *b, float *d, float *norms) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + warp * 256, acc, 16, rocwmma::mem_row_major);
  float v = d[warp * 256 + lane];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o);
  if (lane == 0) norms[warp] = v;
}

// (3) the doubled block would have 2048 threads.
__global__ void wide_gemm(const half *a, const half *b, float *d) {
  const int warp = threadIdx.x / 32;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + warp * 256, acc, 16, rocwmma::mem_row_major);
}

// (3) the block size comes from the command line: its doubled size cannot be checked.
__global__ void sized_gemm(const half *a, const half *b, float *d) {
  const int warp = threadIdx.x / 32;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + warp * 256, acc, 16, rocwmma::mem_row_major);
}

void run_staged(const half *a, const half *b, float *d, int k) { staged_gemm<<<8, 128>>>(a, b, d, k); }
void run_counted(const half *a, const half *b, float *d, int *done) { counted_gemm<<<8, 128>>>(a, b, d, done); }
void run_shuffled(const half *a, const half *b, float *d, float *n) { shuffled_gemm<<<8, 128>>>(a, b, d, n); }
void run_wide(const half *a, const half *b, float *d) { wide_gemm<<<1, 1024>>>(a, b, d); }
void run_sized(const half *a, const half *b, float *d, int threads) { sized_gemm<<<1, threads>>>(a, b, d); }

// (1) a thread id read in a helper that a macro calls: the fixer does not follow macro bodies.
__device__ int stage_row() { return threadIdx.x / 8; }
#define STAGE_ROW() stage_row()
__global__ void macro_gemm(const half *a, const half *b, float *d) {
  const int warp = threadIdx.x / 32;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, half, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a + warp * 256, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(d + warp * 256, acc, 16, rocwmma::mem_row_major);
  d[4096 + STAGE_ROW()] = 1.0f;
}
void run_macro(const half *a, const half *b, float *d) { macro_gemm<<<1, 128>>>(a, b, d); }
