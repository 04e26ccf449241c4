// wave64 CPU runtime: <cuda_runtime.h>. The original CUDA program, run on the same fibers with
// 32-lane warps, is the reference a HIP port is compared with (docs/wave64.md).
#pragma once

#define W64_API_CUDA 1
// The include guards of CUDA's own headers, which code tests to see what is included (e.g. the
// CUDA samples' helper_cuda.h: checkCudaErrors under __DRIVER_TYPES_H__, findCudaDevice under
// __CUDA_RUNTIME_H__). <cuda_runtime.h> includes driver_types.h and cuda_runtime_api.h there too.
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif

#include "wave64/api.h"
#include "wave64/warp_cuda.h"
