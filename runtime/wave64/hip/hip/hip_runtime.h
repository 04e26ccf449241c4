// wave64 CPU runtime: <hip/hip_runtime.h>. HIP kernels compiled by the host compiler run on
// fibers with W64_WAVE_SIZE-lane wavefronts (docs/wave64.md). Built by `ferry wave64 build`.
#pragma once

#define W64_API_HIP 1
// The include guards of HIP's own headers, which code tests to see what is included (e.g. the
// CUDA samples' helper_cuda.h after migration: HIP_INCLUDE_HIP_HIP_RUNTIME_H).
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_DRIVER_TYPES_H
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif

#include "hip/hip_version.h"
#include "wave64/api.h"
#include "wave64/vector_ops_hip.h"
#include "wave64/warp_hip.h"

#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
