// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/gl_interop.h.
// CUDA's cuda_gl_interop.h. HIP has hip/hip_gl_interop.h from ROCm 5.7 on; before it, the GL
// interop functions (hipGraphicsGLRegisterBuffer, hipGLGetDevices, ...) are declared by
// hip/hip_runtime_api.h itself, which hip/hip_runtime.h includes.
#pragma once
#include <hip/hip_version.h>
#if HIP_VERSION_MAJOR > 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR >= 7)
#include <hip/hip_gl_interop.h>
#else
#include <hip/hip_runtime.h>
#endif
