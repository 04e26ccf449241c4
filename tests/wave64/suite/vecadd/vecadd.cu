// Elementwise a + b; the size comes from the command line (the Makefile's run target).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: vecadd N\n");
    return 3;
  }
  const int n = atoi(argv[1]);
  float *a, *b, *c;
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  cudaMallocManaged(&c, n * sizeof(float));
  for (int i = 0; i < n; ++i) a[i] = i * 0.5f, b[i] = 1.0f / (i + 1);
  add<<<(n + 127) / 128, 128>>>(a, b, c, n);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i) s += c[i];
  printf("n %d sum %.6f\n", n, s);
  return 0;
}
