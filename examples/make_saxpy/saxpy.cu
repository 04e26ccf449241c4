#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "saxpy.cuh"

int main() {
  const int n = 1 << 16;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  launch_saxpy(n, 3.0f, dx, dy);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (float v : y) bad += v != 5.0f;
  std::printf("saxpy: %d elements, %d wrong\n", n, bad);
  cudaFree(dx);
  cudaFree(dy);
  return bad == 0 ? 0 : 1;
}
