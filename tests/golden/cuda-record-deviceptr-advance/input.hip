#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

// Maps a buffer chunk by chunk, advancing the device pointer in place.
hipError_t /* ferry-cuda: CUresult */ map_chunks(hipDeviceptr_t ptr, const size_t *sizes, const hipMemGenericAllocationHandle_t *handles, int n) {
  for (int i = 0; i < n; ++i) {
    hipError_t /* ferry-cuda: CUresult */ status = hipMemMap(ptr, sizes[i], 0, handles[i], 0);
    if (status != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return status;
    (ptr = (hipDeviceptr_t)((char*)ptr + (sizes[i]))) /* ferry-cuda: ptr += sizes[i] */;
  }
  return hipSuccess /* ferry-cuda: CUDA_SUCCESS */;
}
