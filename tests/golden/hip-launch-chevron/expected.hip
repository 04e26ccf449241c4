// Kernel launches of an operator library: plain, templated, namespaced, with dynamic shared
// memory and a stream, without arguments, and inside a macro.
#include <hip/hip_runtime.h>
#include <vector>

template <typename T, int kBlock>
__global__ void scale_kernel(T* x, T alpha, int n) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) x[i] *= alpha;
}

__global__ void row_sum(const float* x, float* y, int cols) {
  extern __shared__ float partial[];
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[blockIdx.x * cols + c];
  partial[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int t = 1; t < blockDim.x; ++t) s += partial[t];
    y[blockIdx.x] = s;
  }
}

__global__ void warmup() {}

namespace ops {
__global__ void relu(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] > 0.f ? x[i] : 0.f;
}
}  // namespace ops

#define LAUNCH_RELU(x, n, stream) \
  ops::relu<<<((n) + 255) / 256, 256, 0, stream>>>(x, n)

void forward(float* d_x, float* d_y, int rows, int cols, hipStream_t stream) {
  warmup<<<1, 1>>>();
  const int n = rows * cols;
  scale_kernel<float, 256><<<(n + 255) / 256, 256>>>(d_x, 0.5f, n);
  row_sum<<<rows, 128, 128 * sizeof(float), stream>>>(d_x, d_y, cols);
  LAUNCH_RELU(d_y, rows, stream);
  dim3 grid(rows, 1), block(32, 4);
  ops::relu<<<grid, block, 0>>>(d_x, n);
  std::vector<std::vector<int>> shapes{{rows, cols}};  // template closers, not a launch
  int packed = (rows << 16) | (cols >> 2);
  (void)packed;
}
