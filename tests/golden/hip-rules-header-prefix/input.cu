// Framework code that puts the CUDA toolkit root on the include path and names the toolkit's
// headers through its include/ directory: mapped by the path after include/ (FRY5201).
#include "include/cuda_runtime.h"
#include "include/cuda_fp16.h"
#include <include/curand_kernel.h>
#include "cuda-12.4/targets/x86_64-linux/include/cuda_runtime_api.h"
#include <cstdio>

__global__ void noise(__half* out, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, i, 0, &st);
  if (i < n) out[i] = __float2half(curand_uniform(&st));
}

int main() {
  __half* d = nullptr;
  cudaMalloc(&d, 256 * sizeof(__half));
  noise<<<1, 256>>>(d, 42ull, 256);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(e));
  return cudaFree(d) == cudaSuccess ? 0 : 1;
}
