// A shim that names CUDA's types for HIP's on NVIDIA builds (written for this test).
#pragma once
#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(hipExternalMemoryHandleTypeOpaqueFd)
  #define hipExternalMemoryHandleType cudaExternalMemoryHandleType
  #define hipExternalMemoryHandleTypeOpaqueFd cudaExternalMemoryHandleTypeOpaqueFd
  #define hipExternalMemory_t cudaExternalMemory_t

inline hipError_t import_memory(hipExternalMemory_t* mem, cudaExternalMemoryHandleDesc* desc) {
  return hipCUDAErrorTohipError(cudaImportExternalMemory(mem, desc));
}
#endif
