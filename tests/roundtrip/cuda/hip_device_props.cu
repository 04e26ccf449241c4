// CUDA code with a HIP branch that reads HIP-only device properties (written for this test):
// the way there keeps them (HIP has them), and so must the way back.
#include <cstdio>
#include <cuda_runtime.h>

int print_device(int dev) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return 1;
#if defined(USE_HIP)
  std::printf("%s: %s, %d\n", prop.name, prop.gcnArchName, prop.maxSharedMemoryPerMultiProcessor);
#else
  std::printf("%s: sm_%d%d, %zu\n", prop.name, prop.major, prop.minor, prop.sharedMemPerMultiprocessor);
#endif
  return 0;
}
