// CUDA that Ferry migrated from HIP (written for this test): HIP's NVIDIA platform tests were
// written as their value on NVIDIA, with the test kept beside it. Back on HIP the tests return,
// since on AMD the macros are undefined and a `1` would take the NVIDIA branch.
#include <hip/hip_runtime.h>

#ifdef __HIP_PLATFORM_NVIDIA__
constexpr int kLanes = 32;
#else
constexpr int kLanes = 64;
#endif

#ifndef __HIP_PLATFORM_NVCC__
constexpr bool kAmd = true;
#elif defined(__HIP_PLATFORM_NVIDIA__) && !defined(NO_NVIDIA_PATH)
constexpr bool kAmd = false;
#endif

#if __HIP_PLATFORM_NVIDIA__ && KEEP_ONE
constexpr int kOne = 1 /* a user's own comment stays */;
#endif

int lanes() { return kAmd ? 0 : kLanes; }
