// Exclusion markers, strings, comments and members: what the rules must not touch.
#include <cstdio>
#include <hip/hip_runtime.h>
#include "pool.h"   // declares struct Allocator with a member function pointer named cudaMalloc

int main() {
  float* d = nullptr;
  hipMalloc(&d, 64);  // converted; cudaMalloc in this comment is not
  printf("cudaMalloc failed: %s\n", "cudaGetErrorString");
  Allocator a{};
  if (a.cudaMalloc) a.cudaMalloc(16);
  // ferry: ignore-next-line
  cudaDeviceSynchronize();
  hipDeviceSynchronize();
  cudaFree(d);  // ferry: ignore
  // ferry: off
  cudaStream_t s;
  cudaStreamCreate(&s);
  // ferry: on
  hipStreamDestroy(s);
  return 0;
}
