// A CUDA 13 memory location Ferry cannot read (a call's result): the call keeps its arguments
// and FRY4105 asks for the device id. A member declared as a cudaMemLocation is read; the CUDA
// 12 form (a device id) is only renamed.
#include <hip/hip_runtime.h>

struct Placement {
  hipMemLocation loc;
};
hipMemLocation location_for(int dev);

void place(float* p, size_t bytes, int dev, const Placement& pl, hipStream_t s) {
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(p, bytes, location_for(dev), 0, s);
  hipMemAdvise /* ferry-cuda: cudaMemAdvise */(p, bytes, hipMemAdviseSetAccessedBy, location_for(dev));
  hipMemAdvise /* ferry-cuda: cudaMemAdvise */(p, bytes, hipMemAdviseSetAccessedBy, ((pl.loc.type == hipMemLocationTypeDevice ? pl.loc.id : hipCpuDeviceId)) /* ferry-cuda: pl.loc */);
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(p, bytes, dev, s);
}
