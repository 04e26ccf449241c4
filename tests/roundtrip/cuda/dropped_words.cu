// Words HIP does not take (issue #28, class 9): a callback's calling convention, __grid_constant__
// and the C++17-removed `register`; each is recorded where it was dropped and comes back.
#include <cuda_runtime.h>
#include <cstdio>

struct Params {
  int values[64];
};

void CUDART_CB on_done(cudaStream_t stream, cudaError_t status, void *user) {
  std::printf("%d %p\n", static_cast<int>(status), user);
}

__global__ void sum_params(__grid_constant__ const Params p, int *out) {
  register int acc = 0;
  for (int k = 0; k < 64; ++k) acc += p.values[k];
  *out = acc;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamAddCallback(s, on_done, nullptr, 0);
  return 0;
}
