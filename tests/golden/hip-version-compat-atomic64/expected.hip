// 64-bit signed atomicMin/atomicMax: CUDA has them for long long; HIP only from ROCm 5.7. For
// HIP 5.2 the output includes Ferry's compat header ferry/compat/atomic64.h (a CAS loop); the
// int and unsigned long long calls keep HIP's own overloads.
#include <hip/hip_runtime.h>
#include "ferry/compat/atomic64.h"

__global__ void range(const long long* v, int n, long long* lo, long long* hi, int* count,
                      unsigned long long* ubig) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMin(lo, v[i]);
  long long before = atomicMax(hi, v[i]);
  if (before < v[i]) atomicAdd(count, 1);
  atomicMax(ubig, (unsigned long long)v[i]);
  atomicMin(count, n);
}
