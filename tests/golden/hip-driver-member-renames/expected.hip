// Virtual-memory allocation properties: CUDA's CUmemAllocationProp::requestedHandleTypes is HIP's
// hipMemAllocationProp::requestedHandleType (cuda-samples simpleVulkanMMAP, memMapIPCDrv): member
// accesses and designated initializers are renamed; a variable of that name is the user's.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

hipError_t /* ferry-cuda: CUresult */ reserve(int device, size_t size, hipMemGenericAllocationHandle_t* handle) {
  int requestedHandleTypes = 1;  // a variable: stays
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned /* ferry-cuda: CU_MEM_ALLOCATION_TYPE_PINNED */;
  prop.location.type = hipMemLocationTypeDevice /* ferry-cuda: CU_MEM_LOCATION_TYPE_DEVICE */;
  prop.location.id = device;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor /* ferry-cuda: CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR */;
  hipMemAllocationProp* p = &prop;
  if (p->requestedHandleType != hipMemHandleTypePosixFileDescriptor /* ferry-cuda: CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR */) return hipErrorInvalidValue /* ferry-cuda: CUDA_ERROR_INVALID_VALUE */;
  hipMemAllocationProp other = {.type = hipMemAllocationTypePinned /* ferry-cuda: CU_MEM_ALLOCATION_TYPE_PINNED */,
                               .requestedHandleType = hipMemHandleTypeNone /* ferry-cuda: CU_MEM_HANDLE_TYPE_NONE */,
                               .location = {hipMemLocationTypeDevice /* ferry-cuda: CU_MEM_LOCATION_TYPE_DEVICE */, device}};
  (void)other;
  (void)requestedHandleTypes;
  return hipMemCreate(handle, size, &prop, 0);
}
