// wave64 CPU runtime: <hip/hip_bf16.h> comes with <hip/hip_runtime.h>.
#pragma once
#include "hip/hip_runtime.h"
#if defined(W64_API_HIP)
typedef __w64_bfloat16 hip_bfloat16;
typedef __w64_bfloat16 __hip_bfloat16;
typedef __w64_bfloat162 __hip_bfloat162;
#endif
