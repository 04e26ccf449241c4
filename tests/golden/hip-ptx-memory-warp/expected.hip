// Inline PTX loads and stores with cache hints, warp shuffles and votes: the same operation as
// HIP spells it (FRY1311). The shuffles keep CUDA's 32-lane segments (width 32).
#include <hip/hip_runtime.h>

__device__ __forceinline__ float ldg_f32(const float* p) {
  float v;
  (v = __ldg((const float*)(p))) /* ferry-cuda: asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)) */;
  return v;
}

__device__ __forceinline__ float4 ldg_f32x4(const float4* p) {
  float4 v;
  ([&] { const float4 ferry_v = __ldg((const float4*)(p)); v.x = ferry_v.x; v.y = ferry_v.y; v.z = ferry_v.z; v.w = ferry_v.w; }()) /* ferry-cuda: asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)) */;
  return v;
}

__device__ __forceinline__ int ld_stream(const int* p) {
  int v;
  (v = __builtin_nontemporal_load((const int*)(p))) /* ferry-cuda: asm volatile("ld.global.cs.s32 %0, [%1];" : "=r"(v) : "l"(p)) */;
  return v;
}

__device__ __forceinline__ void st_stream(float* p, float v) {
  (__builtin_nontemporal_store((float)(v), (float*)(p))) /* ferry-cuda: asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v)) */;
}

__device__ __forceinline__ int shfl_down(int v, int delta) {
  int r;
  (r = __shfl_down(v, delta, 32)) /* ferry-cuda: asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta)) */;
  return r;
}

__device__ __forceinline__ int shfl_idx16(int v, int src) {
  int r;
  (r = __shfl(v, ((src) & ((16) - 1)), 16)) /* ferry-cuda: asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x100f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src)) */;
  return r;
}

__device__ __forceinline__ unsigned ballot(int pred) {
  unsigned r;
  (r = __ballot(pred != 0)) /* ferry-cuda: asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.u32 p, %1, 0;\n"
      "  vote.sync.ballot.b32 %0, p, 0xffffffff;\n"
      "}\n"
      : "=r"(r)
      : "r"(pred)) */;
  return r;
}

__device__ __forceinline__ int all_true(int pred) {
  int r;
  (r = __all(pred != 0)) /* ferry-cuda: asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0; vote.all.pred q, p; selp.s32 %0, 1, 0, q; }"
               : "=r"(r)
               : "r"(pred)) */;
  return r;
}

__global__ void kernel(const float* in, const float4* in4, const int* xs, float* out, unsigned* masks) {
  float4 q = ldg_f32x4(in4 + threadIdx.x);
  float v = ldg_f32(in + threadIdx.x) + q.x + q.w;
  int x = ld_stream(xs + threadIdx.x);
  x += shfl_down(x, 1) + shfl_idx16(x, 0);
  masks[threadIdx.x] = ballot(x > 0) + (unsigned)all_true(x != 0);
  (__threadfence()) /* ferry-cuda: asm volatile("membar.gl;") */;
  st_stream(out + threadIdx.x, v + (float)x);
}
