// A vendor header that takes CUDA 12.8's narrow float types when the toolkit has them. HIP has no
// FP4 or FP6 header (through ROCm 6.2): the includes are reported (FRY1001), not left silent. The
// version test itself compares CUDA's numbering; HIP_VERSION's is another (FRY4001).
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#if HIP_VERSION >= 12080
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#define HAVE_NARROW_FLOATS 1
#endif

__device__ inline float twice(__half h) { return 2.0f * __half2float(h); }
