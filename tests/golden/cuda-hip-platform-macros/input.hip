// Code that chooses its platform with HIP's platform macros.
#include <hip/hip_runtime.h>

__global__ void copy_bits(float* out, const float* in) {
  const int i = threadIdx.x;
#ifdef __HIP_PLATFORM_AMD__
  asm volatile("v_mov_b32_e32 %0, %1" : "=v"(out[i]) : "v"(in[i]));
#elif defined(__HIP_PLATFORM_NVIDIA__)
  asm volatile("mov.f32 %0, %1;" : "=f"(out[i]) : "f"(in[i]));
#endif
}

#ifdef __HIP_PLATFORM_NVIDIA__
constexpr int kLanes = 32;
#else
constexpr int kLanes = 64;
#endif

#ifndef __HIP_PLATFORM_NVCC__
constexpr bool kAmd = true;
#else
constexpr bool kAmd = false;
#endif

#if __HIP_PLATFORM_NVIDIA__ && !defined __HIP_PLATFORM_AMD__
constexpr const char* kName = "nvidia";
#endif

int lanes() { return kAmd ? 0 : kLanes; }
