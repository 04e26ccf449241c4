// A shim for HIP's NVIDIA back end, as examples carry: what older HIP releases lacked on NVIDIA,
// written in terms of CUDA. Under nvcc the version macros are defined by nothing.
#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#if defined(__HIP_PLATFORM_NVIDIA__) && HIP_VERSION_MAJOR < 6
hipError_t hipGetDeviceCount(int* count)
{
    return hipCUDAErrorTohipError(cudaGetDeviceCount(count));
}
#endif

#if HIP_VERSION >= 60200000
constexpr bool kNewHip = true;
#else
constexpr bool kNewHip = false;
#endif

#ifdef __HIP_PLATFORM_NVIDIA__
hipError_t devices(int* count)
{
    return hipCUDAErrorTohipError(cudaGetDeviceCount(count));
}
#endif

bool new_hip() { return kNewHip; }
