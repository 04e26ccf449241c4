// CUmemAllocationProp's allocFlags: HIP 5.2's hipMemAllocationProp has a top-level compressionType
// and no allocFlags struct (ROCm 5.3 added it). compressionType moves up a level; the other flags
// have no HIP 5.2 member and are reported (FRY1301).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <string.h>

void set_prop(hipMemAllocationProp *prop, int device, bool compressible) {
  memset(prop, 0, sizeof(hipMemAllocationProp));
  prop->type = hipMemAllocationTypePinned /* ferry-cuda: CU_MEM_ALLOCATION_TYPE_PINNED */;
  prop->location.type = hipMemLocationTypeDevice /* ferry-cuda: CU_MEM_LOCATION_TYPE_DEVICE */;
  prop->location.id = device;
  if (compressible) prop->compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
}

bool is_compressed(hipMemGenericAllocationHandle_t handle) {
  hipMemAllocationProp got = {};
  hipMemGetAllocationPropertiesFromHandle(&got, handle);
  return got.compressionType == CU_MEM_ALLOCATION_COMP_GENERIC;
}

unsigned short usage_of(const hipMemAllocationProp &p) { return p.allocFlags.usage; }
