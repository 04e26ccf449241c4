// Virtual memory management is driver API only in CUDA: the structs and enums HIP spells like the
// memory-pool ones take the driver's spelling in a file that uses the VMM calls.
#include <hip/hip_runtime.h>

bool map_on(int device, size_t bytes, hipDeviceptr_t *out) {
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = device;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  size_t granularity = 0;
  if (hipMemGetAllocationGranularity(&granularity, &prop, hipMemAllocationGranularityMinimum) != 0) return false;
  bytes = (bytes + granularity - 1) / granularity * granularity;
  hipMemGenericAllocationHandle_t handle;
  if (hipMemCreate(&handle, bytes, &prop, 0) != 0) return false;
  if (hipMemAddressReserve(out, bytes, 0, 0, 0) != 0 || hipMemMap(*out, bytes, 0, handle, 0) != 0) return false;
  hipMemAccessDesc access = {};
  access.location = prop.location;
  access.flags = hipMemAccessFlagsProtReadWrite;
  const auto status = hipMemSetAccess(*out, bytes, &access, 1);
  hipMemRelease(handle);
  return status == 0;
}
