// A shim for HIP's NVIDIA back end, as examples carry: what older HIP releases lacked on NVIDIA,
// written in terms of CUDA. Under nvcc the version macros are defined by nothing.
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cuda_runtime_api.h> /* ferry-hip: <hip/hip_version.h> */

#if 1 /* ferry: defined(__HIP_PLATFORM_NVIDIA__) */ && 6 /* ferry: HIP_VERSION_MAJOR */ < 6
cudaError_t cudaGetDeviceCount(int* count)
{
    return ferry::cuda_compat::hipCUDAErrorTohipError(cudaGetDeviceCount /* ferry-hip: cudaGetDeviceCount */(count));
}
#endif

#if 60200000 /* ferry: HIP_VERSION */ >= 60200000
constexpr bool kNewHip = true;
#else
constexpr bool kNewHip = false;
#endif

#if 1 /* ferry: #ifdef __HIP_PLATFORM_NVIDIA__, defined on NVIDIA */
cudaError_t devices(int* count)
{
    return ferry::cuda_compat::hipCUDAErrorTohipError(cudaGetDeviceCount /* ferry-hip: cudaGetDeviceCount */(count));
}
#endif

bool new_hip() { return kNewHip; }
