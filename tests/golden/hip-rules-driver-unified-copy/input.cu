// The driver API's unified-address copies take no direction: cuMemcpy(dst, src, n) and
// cuMemcpyAsync(dst, src, n, stream) (NVIDIA-developer-blog cuda-vmm). HIP's hipMemcpy with
// hipMemcpyDefault infers the direction from the pointers the same way.
#include <cuda.h>

CUresult copy_twice(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  CUresult status = cuMemcpy(dst, src, bytes);
  if (status != CUDA_SUCCESS) return status;
  return cuMemcpyAsync(dst, src, bytes, stream);
}
