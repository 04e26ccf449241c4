// Device printf of the built-in indices: CUDA's are unsigned ints; HIP's are property objects that
// clang 15's AMDGPU printf rejects as variadic arguments. Expressions of them are plain values.
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void hello(const float* v) {
  printf("block %u thread %u of %u\n", (unsigned int)blockIdx.x, (unsigned int)threadIdx.x, (unsigned int)blockDim.x);
  printf("grid %u x %u, row %u\n", (unsigned int)gridDim.x, (unsigned int)gridDim.y, blockIdx.y * blockDim.y + threadIdx.y);
  printf("z %u, value %f\n", (unsigned int)threadIdx.z, v[threadIdx.x]);
}

int main() {
  hello<<<2, 2>>>(nullptr);
  hipDeviceSynchronize();
  printf("done\n");
}
