// CUDA kernels: not translated; an Ascend C skeleton is generated and launches take the Ascend C form.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale2d(float *m, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) m[y * w + x] *= 2.0f;
}

void run(int n, float a, const float *x, float *y, float *m, int w, int h) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  saxpy<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y);
  saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
  dim3 grid((w + 15) / 16, (h + 15) / 16), block(16, 16);
  scale2d<<<grid, block, 0, stream>>>(m, w, h);
  cudaStreamSynchronize(stream);
}
