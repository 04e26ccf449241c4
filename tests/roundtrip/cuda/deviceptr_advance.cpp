#include <cuda.h>

// Maps a buffer chunk by chunk, advancing the device pointer in place.
CUresult map_chunks(CUdeviceptr ptr, const size_t *sizes, const CUmemGenericAllocationHandle *handles, int n) {
  for (int i = 0; i < n; ++i) {
    CUresult status = cuMemMap(ptr, sizes[i], 0, handles[i], 0);
    if (status != CUDA_SUCCESS) return status;
    ptr += sizes[i];
  }
  return CUDA_SUCCESS;
}
