// Warp-synchronous shared-memory reduction (CUDA 9 style) with __syncwarp.
#include <cuda_runtime.h>

__global__ void block_reduce(const float* in, float* out, int n) {
  __shared__ volatile float smem[256];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  smem[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    unsigned mask = __activemask();
    smem[tid] += smem[tid + 32];
    __syncwarp(mask);
    smem[tid] += smem[tid + 16];
    __syncwarp();
    smem[tid] += smem[tid + 8];
    __syncwarp(0xffffffff);
    smem[tid] += smem[tid + 4];
    __syncwarp();
    smem[tid] += smem[tid + 2];
    __syncwarp();
    smem[tid] += smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
