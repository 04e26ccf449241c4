// Device memory: allocation policy, capacity arguments, host memory, memory info.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  const size_t n = 1 << 20;
  float *d_x = nullptr, *h_x = nullptr;
  cudaSetDevice(0);
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMallocHost((void **)&h_x, n * sizeof(float));
  cudaMemset(d_x, 0, n * sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  printf("%zu of %zu bytes free\n", free_b, total_b);
  cudaFreeHost(h_x);
  cudaFree(d_x);
  cudaDeviceReset();
  return 0;
}
