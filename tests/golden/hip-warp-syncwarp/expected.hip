// Warp-synchronous shared-memory reduction (CUDA 9 style) with __syncwarp.
#include <hip/hip_runtime.h>

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
    unsigned mask = ((unsigned)(__ballot(1) >> (__lane_id() & 32)));
    smem[tid] += smem[tid + 32];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")) /* ferry-cuda: __syncwarp(mask) */;
    smem[tid] += smem[tid + 16];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    smem[tid] += smem[tid + 8];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")) /* ferry-cuda: __syncwarp(0xffffffff) */;
    smem[tid] += smem[tid + 4];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    smem[tid] += smem[tid + 2];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    smem[tid] += smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
