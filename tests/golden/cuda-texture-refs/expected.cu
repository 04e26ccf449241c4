// A texture reference: HIP still has them, CUDA removed them in 12.0.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> tex_in;

__global__ void copy(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(tex_in, i);
}

void run(const float* d_in, float* d_out, int n) {
  hipBindTexture(nullptr, tex_in, d_in, n * sizeof(float));
  copy<<<(n + 255) / 256, 256>>>(d_out, n);
  hipUnbindTexture(tex_in);
}
