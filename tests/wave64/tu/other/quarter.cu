// Another program defining the same names, with lane math the fixer does not rewrite (% 16).
#include <cstdio>
#define WARP_SIZE 32

__device__ float warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void block_sum(const float* in, float* out) {
  const int quad = threadIdx.x % 16;
  float v = warp_sum(in[threadIdx.x]);
  if (quad == 0) out[threadIdx.x / 16] = v;
}

int main() {
  float *in, *out;
  cudaMallocManaged(&in, 64 * sizeof(float));
  cudaMallocManaged(&out, 4 * sizeof(float));
  block_sum<<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
