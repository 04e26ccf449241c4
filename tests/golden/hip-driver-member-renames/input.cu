// Virtual-memory allocation properties: CUDA's CUmemAllocationProp::requestedHandleTypes is HIP's
// hipMemAllocationProp::requestedHandleType (cuda-samples simpleVulkanMMAP, memMapIPCDrv): member
// accesses and designated initializers are renamed; a variable of that name is the user's.
#include <cuda.h>

CUresult reserve(int device, size_t size, CUmemGenericAllocationHandle* handle) {
  int requestedHandleTypes = 1;  // a variable: stays
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemAllocationProp* p = &prop;
  if (p->requestedHandleTypes != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return CUDA_ERROR_INVALID_VALUE;
  CUmemAllocationProp other = {.type = CU_MEM_ALLOCATION_TYPE_PINNED,
                               .requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE,
                               .location = {CU_MEM_LOCATION_TYPE_DEVICE, device}};
  (void)other;
  (void)requestedHandleTypes;
  return cuMemCreate(handle, size, &prop, 0);
}
