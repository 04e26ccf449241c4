// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/memloc.h.
// CUDA's host memory-location types (cudaMemLocationTypeHost, ...HostNuma, ...HostNumaCurrent)
// under the names ROCm 7.1's HIP gives them, for HIP before 7.1, whose hipMemLocationType has
// only hipMemLocationTypeInvalid (0) and hipMemLocationTypeDevice (1). The values are CUDA's and
// ROCm 7.1's: 2, 3 and 4. They let code that *reads* a location's type compile and behave as in
// CUDA (Ferry turns a CUDA 13 host location of cudaMemPrefetchAsync / cudaMemAdvise into
// hipCpuDeviceId, FRY4104); HIP before 7.1 rejects them where it takes a hipMemLocation itself
// (memory pools, hipMemSetAccess) with hipErrorInvalidValue. From HIP 7.1 on this header
// defines nothing.
#pragma once
#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#if HIP_VERSION_MAJOR < 7 || (HIP_VERSION_MAJOR == 7 && HIP_VERSION_MINOR < 1)
static constexpr hipMemLocationType hipMemLocationTypeHost = static_cast<hipMemLocationType>(2);
static constexpr hipMemLocationType hipMemLocationTypeHostNuma = static_cast<hipMemLocationType>(3);
static constexpr hipMemLocationType hipMemLocationTypeHostNumaCurrent = static_cast<hipMemLocationType>(4);
#endif
