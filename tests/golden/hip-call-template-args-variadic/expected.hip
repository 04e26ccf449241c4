// A kernel template named with two template arguments, passed to calls whose rule ends in `$1...`
// (no fixed arity to confirm the join): the comma between `<` and `>` is not an argument separator,
// and a comparison `a < b, c > d` among the arguments is still split at its comma.
#include <hip/hip_runtime.h>

template <typename T, int N>
__global__ void fill(T *out, T v) {
  extern __shared__ float scratch[];
  scratch[threadIdx.x] = 0.f;
  for (int i = 0; i < N; ++i) out[threadIdx.x * N + i] = v;
}

template <typename T, int N>
void configure(int bytes) {
  hipFuncSetAttribute((reinterpret_cast<const void*>(fill<T, N>)) /* ferry-cuda: fill<T, N> */, hipFuncAttributeMaxDynamicSharedMemorySize, bytes);
  hipFuncSetCacheConfig((reinterpret_cast<const void*>(fill<float, 4>)) /* ferry-cuda: fill<float, 4> */, hipFuncCachePreferShared);
}

int pick(int a, int b, int c, int d) {
  hipFuncSetAttribute((reinterpret_cast<const void*>(fill<float, 4>)) /* ferry-cuda: fill<float, 4> */, hipFuncAttributePreferredSharedMemoryCarveout, a < b ? c > d : 0);
  return 0;
}

void use() { configure<double, 2>(1024); }
