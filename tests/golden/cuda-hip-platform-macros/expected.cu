// Code that chooses its platform with HIP's platform macros.
#include <cuda_runtime.h>

__global__ void copy_bits(float* out, const float* in) {
  const int i = threadIdx.x;
#ifdef __HIP_PLATFORM_AMD__
  asm volatile("v_mov_b32_e32 %0, %1" : "=v"(out[i]) : "v"(in[i]));
#elif 1 /* ferry: defined(__HIP_PLATFORM_NVIDIA__) */
  asm volatile("mov.f32 %0, %1;" : "=f"(out[i]) : "f"(in[i]));
#endif
}

#if 1 /* ferry: #ifdef __HIP_PLATFORM_NVIDIA__, defined on NVIDIA */
constexpr int kLanes = 32;
#else
constexpr int kLanes = 64;
#endif

#if 0 /* ferry: #ifndef __HIP_PLATFORM_NVCC__, defined on NVIDIA */
constexpr bool kAmd = true;
#else
constexpr bool kAmd = false;
#endif

#if 1 /* ferry: __HIP_PLATFORM_NVIDIA__ */ && !defined __HIP_PLATFORM_AMD__
constexpr const char* kName = "nvidia";
#endif

int lanes() { return kAmd ? 0 : kLanes; }
