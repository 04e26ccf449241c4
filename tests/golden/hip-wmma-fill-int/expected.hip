// fill_fragment with a literal of another kind than the fragment's elements: CUDA converts the
// value (0.0f into an int accumulator), rocWMMA deduces its element type from both arguments and
// finds no match. Ferry casts the literal to the fragment's element type.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <rocwmma/rocwmma.hpp>
namespace wmma = rocwmma;

__global__ void imma(const signed char* a, const signed char* b, int* c) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, signed char, rocwmma::row_major> fa;
  rocwmma::fragment<rocwmma::matrix_b, 16, 16, 16, signed char, rocwmma::col_major> fb;
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, int> acc, extra[2];
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> fsum;
  rocwmma::fill_fragment(acc, (static_cast<int>(0.0f)) /* ferry-cuda: 0.0f */);
  rocwmma::fill_fragment(extra[1], (static_cast<int>(0.0f)) /* ferry-cuda: 0.0f */);
  rocwmma::fill_fragment(fsum, (static_cast<float>(0)) /* ferry-cuda: 0 */);
  rocwmma::fill_fragment(fsum, 0.0f);
  rocwmma::load_matrix_sync(fa, a, 16);
  rocwmma::load_matrix_sync(fb, b, 16);
  rocwmma::mma_sync(acc, fa, fb, acc);
  rocwmma::store_matrix_sync(c, acc, 16, rocwmma::mem_row_major);
}
