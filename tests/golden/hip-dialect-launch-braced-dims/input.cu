// nvcc builds a launch's grid or block from a braced list; clang wants an expression there.
#include <cuda_runtime.h>

template <int TX, int TY>
__global__ void stencil(float *out, const float *in, int nx) {
  const int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  if (x < nx) out[y * nx + x] = 0.5f * in[y * nx + x];
}

__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }

void launch(float *out, const float *in, int nx, int ny, cudaStream_t stream) {
  constexpr int tx = 32, ty = 8;
  dim3 grid((nx + tx - 1) / tx, ny / ty, 1);
  stencil<tx, ty><<<grid, {tx, ty, 1}, 0, stream>>>(out, in, nx);
  // Both dimensions braced, one of them from a run-time int (dim3{nx, 1} would narrow).
  stencil<tx, ty><<<{(unsigned)(nx / tx), 1}, {tx, ty}>>>(out, in, nx);
  fill<<<{}, 64>>>(out);
  fill<<<1, {64}, 0, stream>>>(out);
}
