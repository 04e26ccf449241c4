// Vector operators HIP's headers define (the hip target guards them, FRY4103) and a printf whose
// <cstdio> comes through a header found on the include path: the round trip gives both back as
// written, with no guard and no added include.
#include <cuda_runtime.h>
#include "vec_print.h"

inline __host__ __device__ void operator+=(float2 &a, float2 b) {
  a.x += b.x;
  a.y += b.y;
}

__global__ void accumulate(float2 *acc, const float2 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += v[i];
}

void report(float s) {
  printf("total\n");
  PRINT_SUM(s);
}
