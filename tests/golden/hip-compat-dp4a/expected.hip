// Packed dot products: __dp4a and __dp2a_lo/_hi, in their signed, unsigned and vector overloads.
// No HIP release has them: Ferry's compat header simd.h defines them with CUDA's semantics
// (byte or half-word products summed into c, wrapping modulo 2^32).
#include <hip/hip_runtime.h>
#include "ferry/compat/simd.h"

__global__ void dots(const int* a, const int* b, const unsigned* ua, const unsigned* ub, const char4* ca,
                     const uchar4* cua, int* out, unsigned* uout) {
  const int i = threadIdx.x;
  out[i] = __dp4a(a[i], b[i], out[i]);
  uout[i] = __dp4a(ua[i], ub[i], uout[i]);
  out[i] += __dp4a(ca[i], ca[i], 0);
  uout[i] += __dp4a(cua[i], cua[i], 0u);
  out[i] += __dp2a_lo(a[i], b[i], 1) + __dp2a_hi(a[i], b[i], 2);
  uout[i] += __dp2a_lo(ua[i], ub[i], 1u) + __dp2a_hi(ua[i], ub[i], 2u);
}
