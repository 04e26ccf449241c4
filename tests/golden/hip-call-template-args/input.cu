// A kernel template named with two template arguments, passed to a call the rules rewrite by a
// template: the comma between `<` and `>` is not an argument separator.
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void fill(T *out, T v) {
  for (int i = 0; i < N; ++i) out[threadIdx.x * N + i] = v;
}

template <typename T, int N>
int max_threads() {
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes(&attr, fill<T, N>) != cudaSuccess) return 0;
  cudaFuncGetAttributes(&attr, fill<float, 4>);
  return attr.maxThreadsPerBlock;
}

int use() { return max_threads<double, 2>(); }
