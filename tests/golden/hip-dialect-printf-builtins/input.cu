// Device printf of the built-in indices: CUDA's are unsigned ints; HIP's are property objects that
// clang 15's AMDGPU printf rejects as variadic arguments. Expressions of them are plain values.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(const float* v) {
  printf("block %u thread %u of %u\n", blockIdx.x, threadIdx.x, blockDim.x);
  printf("grid %u x %u, row %u\n", gridDim.x, gridDim.y, blockIdx.y * blockDim.y + threadIdx.y);
  printf("z %u, value %f\n", threadIdx.z, v[threadIdx.x]);
}

int main() {
  hello<<<2, 2>>>(nullptr);
  cudaDeviceSynchronize();
  printf("done\n");
}
