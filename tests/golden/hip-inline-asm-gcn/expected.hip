// Inline assembly: PTX with an exact HIP equivalent is rewritten to it (FRY1311: %laneid ->
// __lane_id()); AMD GCN assembly that CUDA code already carries for its HIP build (a branch for
// AMD GPUs) runs as it is and is not reported.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__device__ float dot2(half2 v, half2 u, float acc) {
#if defined(__HIP_PLATFORM_AMD__) && defined(__gfx906__)
  asm volatile("v_dot2_f32_f16 %0, %1, %2, %0" : "+v"(acc) : "v"(v), "v"(u));
  asm volatile("\ts_waitcnt lgkmcnt(0)" ::: "memory");
#elif defined(__HIP_PLATFORM_AMD__)
  acc += __low2float(v) * __low2float(u) + __high2float(v) * __high2float(u);
#else
  unsigned lane;
  (lane = __lane_id()) /* ferry-cuda: asm("mov.u32 %0, %%laneid;" : "=r"(lane)) */;
  acc += __low2float(v) * __low2float(u) + __high2float(v) * __high2float(u) + 0.f * lane;
#endif
  return acc;
}
