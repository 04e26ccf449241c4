// Virtual memory management is driver API only in CUDA: the structs and enums HIP spells like the
// memory-pool ones take the driver's spelling in a file that uses the VMM calls.
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>

bool map_on(int device, size_t bytes, CUdeviceptr *out) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t granularity = 0;
  if (cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != 0) return false;
  bytes = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle;
  if (cuMemCreate(&handle, bytes, &prop, 0) != 0) return false;
  if (cuMemAddressReserve(out, bytes, 0, 0, 0) != 0 || cuMemMap(*out, bytes, 0, handle, 0) != 0) return false;
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  const auto status = cuMemSetAccess(*out, bytes, &access, 1);
  cuMemRelease(handle);
  return status == 0;
}
