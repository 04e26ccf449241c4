// WMMA element types and shapes: what rocWMMA has a block for on gfx908/gfx90a, and what not.
#include <cuda_bf16.h>
#include <mma.h>

namespace wmma = nvcuda::wmma;

#define TILE 16

__global__ void tf32_tile(const float *a, const float *b, float *c) {
  wmma::fragment<wmma::matrix_a, TILE, TILE, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, TILE, TILE, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, TILE, TILE, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int t = 0; t < fa.num_elements; t++) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, TILE, wmma::mem_col_major);
}

__global__ void bf16_tile(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __nv_bfloat16, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_row_major);
}

__global__ void shapes_rocwmma_lacks(const double *a, const unsigned char *u, const half *h) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> dmma;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> u8;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> tall;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> s8;
  wmma::load_matrix_sync(dmma, a, 4);
  wmma::load_matrix_sync(u8, u, 16);
  wmma::load_matrix_sync(tall, h, 16);
}
