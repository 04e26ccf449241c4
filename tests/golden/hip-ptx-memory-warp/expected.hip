// Inline PTX loads and stores with cache hints, warp shuffles and votes: the same operation as
// HIP spells it (FRY1311). The shuffles keep CUDA's 32-lane segments (width 32).
#include <hip/hip_runtime.h>

__device__ __forceinline__ float ldg_f32(const float* p) {
  float v;
  v = __ldg((const float*)(p));
  return v;
}

__device__ __forceinline__ float4 ldg_f32x4(const float4* p) {
  float4 v;
  do { const float4 ferry_v = __ldg((const float4*)(p)); v.x = ferry_v.x; v.y = ferry_v.y; v.z = ferry_v.z; v.w = ferry_v.w; } while (0);
  return v;
}

__device__ __forceinline__ int ld_stream(const int* p) {
  int v;
  v = __builtin_nontemporal_load((const int*)(p));
  return v;
}

__device__ __forceinline__ void st_stream(float* p, float v) {
  __builtin_nontemporal_store((float)(v), (float*)(p));
}

__device__ __forceinline__ int shfl_down(int v, int delta) {
  int r;
  r = __shfl_down(v, delta, 32);
  return r;
}

__device__ __forceinline__ int shfl_idx16(int v, int src) {
  int r;
  r = __shfl(v, ((src) & ((16) - 1)), 16);
  return r;
}

__device__ __forceinline__ unsigned ballot(int pred) {
  unsigned r;
  r = __ballot(pred != 0);
  return r;
}

__device__ __forceinline__ int all_true(int pred) {
  int r;
  r = __all(pred != 0);
  return r;
}

__global__ void kernel(const float* in, const float4* in4, const int* xs, float* out, unsigned* masks) {
  float4 q = ldg_f32x4(in4 + threadIdx.x);
  float v = ldg_f32(in + threadIdx.x) + q.x + q.w;
  int x = ld_stream(xs + threadIdx.x);
  x += shfl_down(x, 1) + shfl_idx16(x, 0);
  masks[threadIdx.x] = ballot(x > 0) + (unsigned)all_true(x != 0);
  __threadfence();
  st_stream(out + threadIdx.x, v + (float)x);
}
