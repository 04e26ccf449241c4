// rocWMMA -> nvcuda::wmma: a 16x16x16 half-precision tile (CUDA has it), and a 32x32x8 one
// (CUDA has not: FRY1207).
#include <cuda_runtime.h>
#include <mma.h>

__global__ void tile(const __half* a, const __half* b, float* c) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(acc, fa, fb, acc);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_row_major);
}

#if 0  // a shape nvcuda::wmma has no fragment for
__global__ void big(const __half* a) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 32, 32, 8, __half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::load_matrix_sync(fa, a, 32);
}
#endif
