// rocWMMA under a namespace alias -> nvcuda::wmma: `namespace wmma = rocwmma;` (what the hip target
// writes for `using namespace nvcuda;`) comes back as `using namespace nvcuda;`, and the names
// rocwmma:: qualifies come back under it, `wmma::`.
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

__global__ void tile(const __half* a, const __half* b, float* c, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, ld);
  wmma::load_matrix_sync(fb, b, ld);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, ld, wmma::mem_row_major);
}
