// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/drv_error.h.
// The driver API's error strings (CUDA's cuGetErrorName / cuGetErrorString) under the names ROCm
// 5.5's HIP gives them, hipDrvGetErrorName / hipDrvGetErrorString, for earlier HIP. HIP has one
// error type for the runtime and the driver API (hipError_t), so they answer what the runtime's
// hipGetErrorName / hipGetErrorString answer, and return hipSuccess. From HIP 5.5 on this header
// defines nothing.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#if HIP_VERSION_MAJOR < 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 5)
static inline hipError_t hipDrvGetErrorName(hipError_t error, const char** name) {
  if (!name) return hipErrorInvalidValue;
  *name = hipGetErrorName(error);
  return hipSuccess;
}
static inline hipError_t hipDrvGetErrorString(hipError_t error, const char** text) {
  if (!text) return hipErrorInvalidValue;
  *text = hipGetErrorString(error);
  return hipSuccess;
}
#endif
