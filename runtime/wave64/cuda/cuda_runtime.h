// wave64 CPU runtime: <cuda_runtime.h>. The original CUDA program, run on the same fibers with
// 32-lane warps, is the reference a HIP port is compared with (docs/wave64.md).
#pragma once

#define W64_API_CUDA 1
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif

#include "wave64/api.h"
#include "wave64/warp_cuda.h"
