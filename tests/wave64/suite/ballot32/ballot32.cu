// Counts positive values per warp with a ballot kept in 32 bits: right with 32-lane warps, wrong
// on a 64-lane wavefront unless the port widens it (a lane-width bug on purpose).
#include <cstdio>
#include <cuda_runtime.h>
__global__ void count(const float* x, int* per_block) {
  __shared__ int per_warp[32];
  const unsigned b = __ballot_sync(0xffffffffu, x[blockIdx.x * blockDim.x + threadIdx.x] > 0.f);
  if (threadIdx.x % warpSize == 0) per_warp[threadIdx.x / warpSize] = __popc(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < (int)(blockDim.x / warpSize); ++w) t += per_warp[w];
    per_block[blockIdx.x] = t;
  }
}
int main() {
  const int blocks = 4, threads = 256;
  static float h[blocks * threads];
  for (int i = 0; i < blocks * threads; ++i) h[i] = ((i * 7919) % 13) - 6.0f;
  float* x;
  int* c;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&c, blocks * sizeof(int));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  count<<<blocks, threads>>>(x, c);
  int r[blocks];
  cudaMemcpy(r, c, sizeof r, cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) printf("block %d positive %d\n", b, r[b]);
  return 0;
}
