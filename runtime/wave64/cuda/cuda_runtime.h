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
// nvcc defines __CUDACC__ in every .cu file it compiles (the driver force-includes this header
// there); code tests it to leave out host stand-ins of device functions (the CUDA samples'
// helper_math.h defines max(int, int), fminf... otherwise, which the runtime has already).
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif

#include "wave64/api.h"
#include "wave64/warp_cuda.h"
