// cudaDeviceProp fields CUDA 13 removed, with the attribute that reads the same value. Shared by
// the HIP -> CUDA device_prop pass (field -> ferry::cuda_compat::device_attribute) and the
// CUDA -> HIP cuda_compat pass (the way back, so HIP -> CUDA -> HIP is a fixed point).
#pragma once

#include <string_view>

namespace ferry::targets::cuda {

struct RemovedPropField {
  std::string_view field;
  std::string_view attribute;
};
inline constexpr RemovedPropField kRemovedPropFields[] = {
    {"clockRate", "cudaDevAttrClockRate"},
    {"memoryClockRate", "cudaDevAttrMemoryClockRate"},
    {"computeMode", "cudaDevAttrComputeMode"},
    {"kernelExecTimeoutEnabled", "cudaDevAttrKernelExecTimeout"},
    {"maxTexture1DLinear", "cudaDevAttrMaxTexture1DLinearWidth"},
    {"deviceOverlap", "cudaDevAttrGpuOverlap"},
    {"singleToDoublePrecisionPerfRatio", "cudaDevAttrSingleToDoublePrecisionPerfRatio"},
};

}  // namespace ferry::targets::cuda
