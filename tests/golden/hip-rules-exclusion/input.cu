// Exclusion markers, strings, comments and members: what the rules must not touch.
#include <cstdio>
#include <cuda_runtime.h>
#include "pool.h"   // declares struct Allocator with a member function pointer named cudaMalloc

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 64);  // converted; cudaMalloc in this comment is not
  printf("cudaMalloc failed: %s\n", "cudaGetErrorString");
  Allocator a{};
  if (a.cudaMalloc) a.cudaMalloc(16);
  // ferry: ignore-next-line
  cudaDeviceSynchronize();
  cudaDeviceSynchronize();
  cudaFree(d);  // ferry: ignore
  // ferry: off
  cudaStream_t s;
  cudaStreamCreate(&s);
  // ferry: on
  cudaStreamDestroy(s);
  return 0;
}
