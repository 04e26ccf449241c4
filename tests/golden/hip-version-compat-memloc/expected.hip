// CUDA 13 host memory locations (the shape of cuda-samples' UnifiedMemoryPerf and
// conjugateGradientMultiDeviceCG): HIP before 7.1 has no hipMemLocationTypeHost, so the output
// includes Ferry's compat header ferry/compat/memloc.h; the prefetch that takes the location
// becomes HIP's device-id form (FRY4104).
#include <hip/hip_runtime.h>
#include "ferry/compat/memloc.h"

int prefetch_both_ways(float* managed, size_t bytes, int dev, hipStream_t s) {
  hipMemLocation hostLoc = {};
  hostLoc.type = hipMemLocationTypeHost;
  hostLoc.id = 0;
  hipMemLocation devLoc = {};
  devLoc.type = hipMemLocationTypeDevice;
  devLoc.id = dev;
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(managed, bytes, ((devLoc.type == hipMemLocationTypeDevice ? devLoc.id : hipCpuDeviceId)) /* ferry-cuda: devLoc, 0 */, s);
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(managed, bytes, ((hostLoc.type == hipMemLocationTypeDevice ? hostLoc.id : hipCpuDeviceId)) /* ferry-cuda: hostLoc, 0 */, s);
  const bool numa = hostLoc.type == hipMemLocationTypeHostNuma || hostLoc.type == hipMemLocationTypeHostNumaCurrent;
  return numa ? 1 : hipStreamSynchronize(s) == hipSuccess ? 0 : 2;
}

int main() {
  float* p = nullptr;
  hipMallocManaged(&p, 1 << 20);
  const int rc = prefetch_both_ways(p, 1 << 20, 0, 0);
  hipFree(p);
  return rc;
}
