// CUmemAllocationProp's allocFlags: HIP 5.2's hipMemAllocationProp has a top-level compressionType
// and no allocFlags struct (ROCm 5.3 added it). compressionType moves up a level; the other flags
// have no HIP 5.2 member and are reported (FRY1301).
#include <cuda.h>
#include <string.h>

void set_prop(CUmemAllocationProp *prop, int device, bool compressible) {
  memset(prop, 0, sizeof(CUmemAllocationProp));
  prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop->location.id = device;
  if (compressible) prop->allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
}

bool is_compressed(CUmemGenericAllocationHandle handle) {
  CUmemAllocationProp got = {};
  cuMemGetAllocationPropertiesFromHandle(&got, handle);
  return got.allocFlags.compressionType == CU_MEM_ALLOCATION_COMP_GENERIC;
}

unsigned short usage_of(const CUmemAllocationProp &p) { return p.allocFlags.usage; }
