// rocWMMA names brought in by using-declarations and a using-directive.
#include <hip/hip_runtime.h>
#include <rocwmma/rocwmma.hpp>

using rocwmma::float16_t;
using rocwmma::float32_t;
using rocwmma::matrix_a;
using rocwmma::row_major;

namespace tc {
using namespace rocwmma;
}

__global__ void load(const float16_t* a, float32_t* out) {
  tc::fragment<matrix_a, 16, 16, 16, float16_t, row_major> fa;
  tc::load_matrix_sync(fa, a, 16);
  out[threadIdx.x] = static_cast<float32_t>(fa.x[0]);
}
