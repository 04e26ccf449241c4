// AMD-only features: reported, left as they are.
#include <hip/hip_runtime.h>

__device__ int lane_id() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

__device__ void nop() { asm volatile("s_nop 0"); }

#if __AMDGCN_CUMODE__
#define FAST 1
#endif

void launch_all(hipLaunchParams* params, int n) {
  hipExtLaunchMultiKernelMultiDevice(params, n, 0);
}
