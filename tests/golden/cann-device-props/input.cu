// Device queries: counts and ids of several integer types, attributes with and without an
// AscendCL query, memory info, peer access.
#include <cstdio>
#include <cuda_runtime.h>

struct Topology {
  int devices;
  size_t free_bytes;
};

void describe(Topology *topo) {
  int n = 0;
  cudaGetDeviceCount(&n);
  unsigned int un = 0;
  cudaGetDeviceCount(&un);
  cudaGetDeviceCount(&topo->devices);

  int dev = 0;
  cudaGetDevice(&dev);
  long ldev = 0;
  cudaGetDevice(&ldev);

  int cores = 0, warp = 0, l2 = 0;
  cudaDeviceGetAttribute(&cores, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);

  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  unsigned long long total_ull = 0;
  cudaMemGetInfo(&topo->free_bytes, &total_ull);

  int can = 0;
  cudaDeviceCanAccessPeer(&can, 0, 1);
  if (can) cudaDeviceEnablePeerAccess(1, 0);
  printf("%d %u %ld %d %d %d %zu %zu %llu\n", n, un, ldev, cores, warp, l2, free_b, total_b, total_ull);
}
