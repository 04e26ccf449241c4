// A kernel template named with two template arguments, passed to a call the rules rewrite by a
// template: the comma between `<` and `>` is not an argument separator.
#include <hip/hip_runtime.h>

template <typename T, int N>
__global__ void fill(T *out, T v) {
  for (int i = 0; i < N; ++i) out[threadIdx.x * N + i] = v;
}

template <typename T, int N>
int max_threads() {
  hipFuncAttributes attr;
  if (hipFuncGetAttributes(&attr, (reinterpret_cast<const void*>(fill<T, N>)) /* ferry-cuda: fill<T, N> */) != hipSuccess) return 0;
  hipFuncGetAttributes(&attr, (reinterpret_cast<const void*>(fill<float, 4>)) /* ferry-cuda: fill<float, 4> */);
  return attr.maxThreadsPerBlock;
}

int use() { return max_threads<double, 2>(); }
