// What the warp pass must leave alone: comments, strings, excluded regions, the pre-CUDA-9
// intrinsics HIP has natively, and names that merely contain an intrinsic's name.
#include <cstdio>
#include <hip/hip_runtime.h>

struct WarpOps {
  unsigned full;
  __device__ float my__shfl_xor_sync(float v) const { return v; }
};

// __shfl_xor_sync(0xffffffff, v, 1) in a comment stays as written.
__global__ void legacy_reduce(float* data) {
  float v = data[threadIdx.x];
  v += __shfl_xor /* ferry-cuda: __shfl_xor */(v, 1);            // HIP has the legacy form natively
  v += __shfl_down /* ferry-cuda: __shfl_down */(v, 2);
  WarpOps ops{0xffffffffu};
  v = ops.my__shfl_xor_sync(v);
  if (threadIdx.x == 0) printf("__ballot_sync(%u) done: %f\n", ops.full, v);
  // ferry: off
#if defined(__NVCC__)
  v += __shfl_xor_sync(0xffffffff, v, 4);
  __syncwarp();
#endif
  // ferry: on
  data[threadIdx.x] = v;
}
