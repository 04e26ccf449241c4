// A reduction that syncs only the lanes it names: the mask comes back on the way back.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
__global__ void tail_sum(float *s) {
  const unsigned int lanes = ((unsigned)(__ballot(threadIdx.x < 16) >> (__lane_id() & 32)));
  if (threadIdx.x < 16) {
    s[threadIdx.x] += s[threadIdx.x + 16];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")) /* ferry-cuda: __syncwarp(lanes) */;
    s[threadIdx.x] += s[threadIdx.x + 8];
    (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront")) /* ferry-cuda: __syncwarp(0xffffffff) */;
  }
  (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
}
