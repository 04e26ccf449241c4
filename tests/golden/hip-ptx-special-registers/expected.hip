// Inline PTX reading special registers: each becomes its exact HIP builtin (FRY1311). (%warpid
// and %globaltimer have none: hip-ptx-unsupported.) Migrated with --no-wave64-fix: the lane-mask
// variables are 32-bit as the PTX wrote them; the wave64 planner does not see inside asm.
#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  (id = __lane_id()) /* ferry-cuda: asm volatile("mov.u32 %0, %%laneid;" : "=r"(id)) */;
  return id;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned mask;
  (mask = (1ull << __lane_id()) - 1) /* ferry-cuda: asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask)) */;
  return mask;
}

__device__ __forceinline__ unsigned lanemask_ge() {
  unsigned m;
  (m = ~((1ull << __lane_id()) - 1)) /* ferry-cuda: asm("mov.u32 %0, %lanemask_ge;" : "=r"(m)) */;
  return m;
}

__device__ __forceinline__ long long cycles() {
  long long t;
  (t = clock64()) /* ferry-cuda: asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)) */;
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  (s = __smid()) /* ferry-cuda: asm volatile("mov.u32 %0, %%smid;" : "=r"(s)) */;
  return s;
}

__global__ void probe(unsigned* out, long long* t) {
  long long t0 = cycles();
  out[threadIdx.x] = lane_id() + lanemask_lt() + lanemask_ge() + sm_id();
  t[threadIdx.x] = cycles() - t0;
}
