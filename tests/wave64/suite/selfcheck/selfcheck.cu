// A program whose own check fails wherever it runs (its expected value is wrong): the verdict
// must be BOTH FAILED, not SAME. Its argument comes from the CMake add_test COMMAND.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void square(int* v) { v[threadIdx.x] *= v[threadIdx.x]; }
int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 0;
  int h[32], *d;
  for (int i = 0; i < 32; ++i) h[i] = i % (n + 1);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  square<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int s = 0;
  for (int i = 0; i < 32; ++i) s += h[i];
  printf("n %d sum of squares %d\n", n, s);
  printf("Result = %s\n", s == 12345 ? "PASS" : "FAIL");
  return 0;
}
