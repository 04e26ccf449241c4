// 64-bit signed atomicMin/atomicMax for ROCm 5.7, whose HIP declares them for long long: no
// compat header.
#include <hip/hip_runtime.h>

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
