// hipMemAllocationProp's compression type as HIP 5.2 spells it (a top-level compressionType) and as
// ROCm 5.3 and later spell it (allocFlags.compressionType): CUDA has only the second.
#include <hip/hip_runtime.h>

void set_prop(hipMemAllocationProp *prop, int device) {
  prop->location.id = device;
  prop->compressionType = 0;
}

bool uncompressed(const hipMemAllocationProp &p) { return p.allocFlags.compressionType == 0; }
