// rocWMMA names brought in by using-declarations and a using-directive.
#include <cuda_runtime.h>
#include <mma.h>

using float16_t = __half;
using float32_t = float;
using nvcuda::wmma::matrix_a;
using nvcuda::wmma::row_major;

namespace tc {
using namespace nvcuda::wmma;
}

__global__ void load(const float16_t* a, float32_t* out) {
  tc::fragment<matrix_a, 16, 16, 16, float16_t, row_major> fa;
  tc::load_matrix_sync(fa, a, 16);
  out[threadIdx.x] = static_cast<float32_t>(fa.x[0]);
}
