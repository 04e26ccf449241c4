#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

// The WMMA namespace under a short alias.
namespace wmma = rocwmma /* ferry-cuda: nvcuda::wmma */;

__global__ void zero_tile(float *c) {
  rocwmma::fragment<rocwmma::accumulator, 16, 16, 16, float> acc;
  rocwmma::fill_fragment(acc, 0.0f);
  rocwmma::store_matrix_sync(c, acc, 16, rocwmma::mem_row_major);
}
