// rocWMMA -> nvcuda::wmma: a 16x16x16 half-precision tile (CUDA has it), and a 32x32x8 one
// (CUDA has not: FRY1207).
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

__global__ void tile(const rocwmma::float16_t* a, const rocwmma::float16_t* b, float* c) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, rocwmma::float16_t, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, rocwmma::float16_t, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, rocwmma::float32_t> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, 16, rocwmma::mem_row_major);
}

#if 0  // a shape nvcuda::wmma has no fragment for
__global__ void big(const rocwmma::float16_t* a) {
  rocwmma::fragment<rocwmma::matrix_a, 32, 32, 8, rocwmma::float16_t, rocwmma::row_major> fa;
  rocwmma::load_matrix_sync(fa, a, 32);
}
#endif
