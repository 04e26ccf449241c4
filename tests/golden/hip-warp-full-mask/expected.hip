// Warp-level reductions as they appear in softmax / layer-norm kernels, with every common
// spelling of the full mask.
#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffff
constexpr unsigned kWarpMask = 0xFFFFFFFFu;

__device__ __forceinline__ float warp_reduce_sum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_xor(/* ferry-cuda: __shfl_xor_sync(FULL_MASK,  */ val, offset);
  return val;
}

__device__ __forceinline__ float warp_reduce_max(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val = fmaxf(val, __shfl_down(/* ferry-cuda: __shfl_down_sync(kWarpMask,  */ val, offset));
  return __shfl(/* ferry-cuda: __shfl_sync(~0u,  */ val, 0);
}

template <typename T>
__device__ T warp_inclusive_scan(T v, int lane) {
  for (int d = 1; d < warpSize; d *= 2) {
    T up = __shfl_up(/* ferry-cuda: __shfl_up_sync(-1,  */ v, d, warpSize);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void softmax_rows(const float* __restrict__ in, float* __restrict__ out, int cols) {
  const float* row = in + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += warpSize) m = fmaxf(m, row[c]);
  m = warp_reduce_max(m);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += warpSize) s += __expf(row[c] - m);
  s = warp_reduce_sum(s);
  for (int c = threadIdx.x; c < cols; c += warpSize)
    out[blockIdx.x * cols + c] = __expf(row[c] - m) / s;
}

__global__ void any_nan(const float* x, int n, int* flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool bad = i < n && isnan(x[i]);
  if (__any(/* ferry-cuda: __any_sync(0xffffffffffffffffull,  */ bad) && threadIdx.x % warpSize == 0) atomicOr(flag, 1);
  if (__all(/* ferry-cuda: __all_sync(__activemask(),  */ !bad)) return;
  int lane = threadIdx.x % warpSize;
  int prefix = warp_inclusive_scan<int>(bad ? 1 : 0, lane);
  if (bad) flag[1 + prefix] = i;
}
