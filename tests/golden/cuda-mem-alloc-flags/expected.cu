// hipMemAllocationProp's compression type as HIP 5.2 spells it (a top-level compressionType) and as
// ROCm 5.3 and later spell it (allocFlags.compressionType): CUDA has only the second.
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>

void set_prop(CUmemAllocationProp *prop, int device) {
  prop->location.id = device;
  prop->allocFlags.compressionType = 0;
}

bool uncompressed(const CUmemAllocationProp &p) { return p.allocFlags.compressionType == 0; }
