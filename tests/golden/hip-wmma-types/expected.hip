// WMMA element types and shapes: what rocWMMA has a block for on gfx908/gfx90a, and what not.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include "ferry/compat/bf16.h"
#include <rocwmma/rocwmma.hpp>

namespace wmma = rocwmma /* ferry-cuda: nvcuda::wmma */;

#define TILE 16

__global__ void tf32_tile(const float *a, const float *b, float *c) {
  rocwmma::fragment<rocwmma::matrix_a, TILE, TILE, 8, float /* ferry-cuda: wmma::precision::tf32 */, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, TILE, TILE, 8, float /* ferry-cuda: wmma::precision::tf32 */, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, TILE, TILE, 8, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a, 8);
  rocwmma::load_matrix_sync(fb, b, 8);
  for (int t = 0; t < fa.num_elements; t++) fa.x[t] = (static_cast<float>(fa.x[t])) /* ferry-cuda: wmma::__float_to_tf32(fa.x[t]) */;
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, TILE, rocwmma::mem_col_major);
}

__global__ void bf16_tile(const __hip_bfloat16 *a, const __hip_bfloat16 *b, float *c) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, rocwmma::bfloat16_t, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, rocwmma::bfloat16_t, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, 16, rocwmma::mem_row_major);
}

__global__ void shapes_rocwmma_lacks(const double *a, const unsigned char *u, const half *h) {
  rocwmma::fragment<rocwmma::matrix_a, 8, 8, 4, double, rocwmma::row_major> dmma;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, unsigned char, rocwmma::row_major> u8;
  rocwmma::fragment<rocwmma::matrix_b, 32, 8, 16, half, rocwmma::col_major> tall;
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, signed char, rocwmma::row_major> s8;
  rocwmma::load_matrix_sync(dmma, a, 4);
  rocwmma::load_matrix_sync(u8, u, 16);
  rocwmma::load_matrix_sync(tall, h, 16);
}
