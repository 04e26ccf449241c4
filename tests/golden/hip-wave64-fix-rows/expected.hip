// Rows of 32 threads (dim3(32, 8): one warp per row of the matrix). On a 64-lane wavefront two
// rows share a wavefront: every shuffle gets the width 32 so it stays in its row, an index
// shuffle's source is taken modulo 32 as in CUDA, and the 32-lane arithmetic stays as it is.
#include <hip/hip_runtime.h>

#define WARP 32

__device__ float row_sum(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_xor(v, o, 32 /* ferry-cuda: (none) */);
  return v;
}

__global__ void gemv_rows(const float* A, const float* x, float* y, int n) {
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  float s = 0.f;
  for (int c = lane; c < n; c += 32) s += A[row * n + c] * x[c];
  s = row_sum(s);
  const float first = __shfl(s, 0, 32 /* ferry-cuda: (none) */);
  const float rotated = __shfl(s, ((lane + 1) & 31), 32 /* ferry-cuda: (none) */);
  if (lane == 0) y[row] = first + 0.f * rotated;
}

void gemv(const float* A, const float* x, float* y, int m, int n) {
  dim3 block(32, 8);
  gemv_rows<<<m / 8, block>>>(A, x, y, n);
}
