// wave64 CPU runtime: <cuda_bf16.h> comes with <cuda_runtime.h>.
#pragma once
#include "cuda_runtime.h"
typedef __w64_bfloat16 __nv_bfloat16;
typedef __w64_bfloat16 nv_bfloat16;
typedef __w64_bfloat162 __nv_bfloat162;
typedef __w64_bfloat162 nv_bfloat162;
