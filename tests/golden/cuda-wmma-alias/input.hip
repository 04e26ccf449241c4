// rocWMMA under a namespace alias -> nvcuda::wmma: `namespace wmma = rocwmma;` (what the hip target
// writes for `using namespace nvcuda;`) comes back as `using namespace nvcuda;`, and the names
// rocwmma:: qualifies come back under it, `wmma::`.
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

namespace wmma = rocwmma;

__global__ void tile(const rocwmma::float16_t* a, const rocwmma::float16_t* b, float* c, int ld) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, rocwmma::float16_t, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, rocwmma::float16_t, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::load_matrix_sync(fa, a, ld);
  rocwmma::load_matrix_sync(fb, b, ld);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, ld, rocwmma::mem_row_major);
}
