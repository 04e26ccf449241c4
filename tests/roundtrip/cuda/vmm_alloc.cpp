#include "include/vmm_alloc.h"

CUresult reserve_and_map(CUdeviceptr *ptr, size_t size, int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  CUmemGenericAllocationHandle handle;
  CUresult status = cuMemCreate(&handle, size, &prop, 0);
  if (status != CUDA_SUCCESS) return status;
  status = cuMemAddressReserve(ptr, size, 0, 0, 0);
  if (status != CUDA_SUCCESS) return status;
  return cuMemMap(*ptr, size, 0, handle, 0);
}
