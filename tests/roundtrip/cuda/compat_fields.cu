#include <cstdio>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

struct Ring {
  unsigned int head;
  unsigned int max;
};

__device__ unsigned int reserve(Ring *ring, unsigned int index) {
  return atomicMax((unsigned int *)&(ring->max), index + 1);
}

__global__ void round_tf32(float *a, int n) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> f;
  wmma::load_matrix_sync(f, a, 16);
  for (int t = 0; t < f.num_elements; t++) f.x[t] = wmma::__float_to_tf32(f.x[t]);
}

void report(int dev, float *managed, size_t bytes, cudaStream_t stream) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  int clock = 0;
#if CUDART_VERSION >= 13000
  cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, dev);
#else
  clock = prop.memoryClockRate;
#endif
  printf("%d kHz\n", clock);
  cudaMemLocation where = {};
  where.type = cudaMemLocationTypeDevice;
  where.id = dev;
  cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, where);
  cudaMemPrefetchAsync(managed, bytes, where, 0, stream);
}
