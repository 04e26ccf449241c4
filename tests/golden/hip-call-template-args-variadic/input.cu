// A kernel template named with two template arguments, passed to calls whose rule ends in `$1...`
// (no fixed arity to confirm the join): the comma between `<` and `>` is not an argument separator,
// and a comparison `a < b, c > d` among the arguments is still split at its comma.
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void fill(T *out, T v) {
  extern __shared__ float scratch[];
  scratch[threadIdx.x] = 0.f;
  for (int i = 0; i < N; ++i) out[threadIdx.x * N + i] = v;
}

template <typename T, int N>
void configure(int bytes) {
  cudaFuncSetAttribute(fill<T, N>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  cudaFuncSetCacheConfig(fill<float, 4>, cudaFuncCachePreferShared);
}

int pick(int a, int b, int c, int d) {
  cudaFuncSetAttribute(fill<float, 4>, cudaFuncAttributePreferredSharedMemoryCarveout, a < b ? c > d : 0);
  return 0;
}

void use() { configure<double, 2>(1024); }
