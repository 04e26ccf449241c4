// A CUDA 13 memory location Ferry cannot read (a call's result): the call keeps its arguments
// and FRY4105 asks for the device id. A member declared as a cudaMemLocation is read; the CUDA
// 12 form (a device id) is only renamed.
#include <cuda_runtime.h>

struct Placement {
  cudaMemLocation loc;
};
cudaMemLocation location_for(int dev);

void place(float* p, size_t bytes, int dev, const Placement& pl, cudaStream_t s) {
  cudaMemPrefetchAsync(p, bytes, location_for(dev), 0, s);
  cudaMemAdvise(p, bytes, cudaMemAdviseSetAccessedBy, location_for(dev));
  cudaMemAdvise(p, bytes, cudaMemAdviseSetAccessedBy, pl.loc);
  cudaMemPrefetchAsync(p, bytes, dev, s);
}
