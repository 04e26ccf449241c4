#include <cuda.h>

// Maps a buffer in stripes; the stripes' addresses are device pointers plus byte offsets.
CUresult map_stripes(CUdeviceptr base, size_t stripe, int count, CUmemGenericAllocationHandle handle) {
  for (int i = 0; i < count; ++i) {
    CUresult status = cuMemMap(base + (stripe * i), stripe, 0, handle, 0);
    if (status != CUDA_SUCCESS) return status;
  }
  CUdeviceptr last = base + stripe * (count - 1);
  return cuMemSetAccess(last, stripe, nullptr, 0);
}

CUdeviceptr stripe_end(CUdeviceptr base, size_t stripe) { return base + stripe; }

// A texture handle made of two 32-bit halves: an integer in CUDA, returned as the handle.
CUtexObject join_halves(unsigned int lo, unsigned int hi) { return ((CUtexObject)lo) | ((CUtexObject)hi << 32); }
