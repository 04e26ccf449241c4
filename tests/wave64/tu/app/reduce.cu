// A program of its own: a warp reduction sized by its own WARP_SIZE, launched with 256 threads.
#include <cstdio>
#define WARP_SIZE 32

__device__ float warp_sum(float v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}

__global__ void block_sum(const float* in, float* out) {
  __shared__ float part[32];
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < blockDim.x / WARP_SIZE; ++w) s += part[w];
    out[blockIdx.x] = s;
  }
}

int main() {
  float *in, *out;
  cudaMallocManaged(&in, 512 * sizeof(float));
  cudaMallocManaged(&out, 2 * sizeof(float));
  for (int i = 0; i < 512; ++i) in[i] = (float)(i % 7);
  block_sum<<<2, 256>>>(in, out);
  cudaDeviceSynchronize();
  printf("SUM %g %g\n", out[0], out[1]);
  return 0;
}
