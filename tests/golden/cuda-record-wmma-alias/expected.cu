#include <cuda_runtime.h>
#include <mma.h>

// The WMMA namespace under a short alias.
namespace wmma = nvcuda::wmma;

__global__ void zero_tile(float *c) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
