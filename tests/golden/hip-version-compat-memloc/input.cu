// CUDA 13 host memory locations (the shape of cuda-samples' UnifiedMemoryPerf and
// conjugateGradientMultiDeviceCG): HIP before 7.1 has no hipMemLocationTypeHost, so the output
// includes Ferry's compat header ferry/compat/memloc.h; the prefetch that takes the location
// becomes HIP's device-id form (FRY4104).
#include <cuda_runtime.h>

int prefetch_both_ways(float* managed, size_t bytes, int dev, cudaStream_t s) {
  cudaMemLocation hostLoc = {};
  hostLoc.type = cudaMemLocationTypeHost;
  hostLoc.id = 0;
  cudaMemLocation devLoc = {};
  devLoc.type = cudaMemLocationTypeDevice;
  devLoc.id = dev;
  cudaMemPrefetchAsync(managed, bytes, devLoc, 0, s);
  cudaMemPrefetchAsync(managed, bytes, hostLoc, 0, s);
  const bool numa = hostLoc.type == cudaMemLocationTypeHostNuma || hostLoc.type == cudaMemLocationTypeHostNumaCurrent;
  return numa ? 1 : cudaStreamSynchronize(s) == cudaSuccess ? 0 : 2;
}

int main() {
  float* p = nullptr;
  cudaMallocManaged(&p, 1 << 20);
  const int rc = prefetch_both_ways(p, 1 << 20, 0, 0);
  cudaFree(p);
  return rc;
}
