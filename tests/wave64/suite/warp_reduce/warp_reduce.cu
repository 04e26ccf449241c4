// A block sum with warp shuffles written for any warp size, checked against a host helper.
#include <cstdio>
#include <cuda_runtime.h>
#include "host_ref.h"
__global__ void block_sum(const int* in, long long* out) {
  __shared__ int partial[1024 / 16];
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) s += partial[w];
    out[blockIdx.x] = s;
  }
}
int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  static int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101;
  int* in;
  long long* out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, blocks * sizeof(long long));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  block_sum<<<blocks, threads>>>(in, out);
  long long r[blocks], total = 0;
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) total += r[b];
  printf("total %lld\n", total);
  printf("%s\n", total == host_sum(h, n) ? "Test PASSED" : "Test FAILED");
  return 0;
}
