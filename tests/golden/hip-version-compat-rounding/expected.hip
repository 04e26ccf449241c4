// Interval arithmetic: the lower bound rounds down, the upper bound up. HIP has these intrinsics
// only behind OCML_BASIC_ROUNDED_OPERATIONS; the port gets ferry/compat/rounding.h.
#include <hip/hip_runtime.h>
#include "ferry/compat/rounding.h"

struct interval { float lo, hi; };

__device__ interval add(interval a, interval b) { return {__fadd_rd(a.lo, b.lo), __fadd_ru(a.hi, b.hi)}; }
__device__ interval scale(interval a, float k) { return {__fmul_rd(a.lo, k), __fmul_ru(a.hi, k)}; }
__device__ double bound(double x, double y) { return __ddiv_rz(__dsqrt_ru(x), y); }

__global__ void step(interval* v, const interval* d, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = add(v[i], scale(d[i], k));
}
