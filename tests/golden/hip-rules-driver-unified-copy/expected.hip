// The driver API's unified-address copies take no direction: cuMemcpy(dst, src, n) and
// cuMemcpyAsync(dst, src, n, stream) (NVIDIA-developer-blog cuda-vmm). HIP's hipMemcpy with
// hipMemcpyDefault infers the direction from the pointers the same way.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

hipError_t /* ferry-cuda: CUresult */ copy_twice(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t /* ferry-cuda: CUstream */ stream) {
  hipError_t /* ferry-cuda: CUresult */ status = (hipMemcpy(dst, src, bytes, hipMemcpyDefault)) /* ferry-cuda: cuMemcpy(dst, src, bytes) */;
  if (status != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return status;
  return (hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, stream)) /* ferry-cuda: cuMemcpyAsync(dst, src, bytes, stream) */;
}
