#include "check_macro.cuh"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main() {
  int *p = nullptr;
  CHECK(cudaMalloc(&p, 64 * sizeof(int)));
  fill<<<1, 64>>>(p, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(p));
  return 0;
}
