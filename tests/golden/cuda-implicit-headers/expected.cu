// hip_runtime.h declares printf, uint32_t, assert and std::string for this file; cuda_runtime.h does not.
#include <stdint.h> /* ferry-hip: (none) */
#include <cstdio> /* ferry-hip: (none) */
#include <cassert> /* ferry-hip: (none) */
#include <string> /* ferry-hip: (none) */
#include <cuda_runtime.h>

__global__ void hello(uint32_t n) {
  if (threadIdx.x == 0) printf("block %d of %u\n", blockIdx.x, n);
}

int main() {
  const uint32_t blocks = 2;
  assert(blocks > 0);
  hello<<<blocks, 32>>>(blocks);
  const std::string done = "done";
  std::printf("%s: %s\n", done.c_str(), cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
