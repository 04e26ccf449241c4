// fill_fragment with a literal of another kind than the fragment's elements: CUDA converts the
// value (0.0f into an int accumulator), rocWMMA deduces its element type from both arguments and
// finds no match. Ferry casts the literal to the fragment's element type.
#include <mma.h>
using namespace nvcuda;

__global__ void imma(const signed char* a, const signed char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc, extra[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fsum;
  wmma::fill_fragment(acc, 0.0f);
  wmma::fill_fragment(extra[1], 0.0f);
  wmma::fill_fragment(fsum, 0);
  wmma::fill_fragment(fsum, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
