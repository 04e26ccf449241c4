// Virtual-memory allocation properties: CUDA's CUmemAllocationProp::requestedHandleTypes is HIP's
// hipMemAllocationProp::requestedHandleType (cuda-samples simpleVulkanMMAP, memMapIPCDrv): member
// accesses and designated initializers are renamed; a variable of that name is the user's.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

hipError_t reserve(int device, size_t size, hipMemGenericAllocationHandle_t* handle) {
  int requestedHandleTypes = 1;  // a variable: stays
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = device;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  hipMemAllocationProp* p = &prop;
  if (p->requestedHandleType != hipMemHandleTypePosixFileDescriptor) return hipErrorInvalidValue;
  hipMemAllocationProp other = {.type = hipMemAllocationTypePinned,
                               .requestedHandleType = hipMemHandleTypeNone,
                               .location = {hipMemLocationTypeDevice, device}};
  (void)other;
  (void)requestedHandleTypes;
  return hipMemCreate(handle, size, &prop, 0);
}
