// HIP that casts the built-in indices it prints (the CUDA -> HIP target writes these casts, for
// clang's AMDGPU printf). CUDA's built-ins are unsigned ints, so the way back drops exactly that
// cast; other casts and expressions are the user's.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(const float* v) {
  printf("block %u thread %u of %u\n", blockIdx.x, threadIdx.x, blockDim.x);
  printf("row %u, grid %d\n", (unsigned int)(blockIdx.y * blockDim.y + threadIdx.y), (int)gridDim.x);
  std::printf("z %u, value %f\n", threadIdx.z, v[threadIdx.x]);
}

int main() {
  hello<<<dim3(2), dim3(2), 0, 0>>>(nullptr);
  cudaDeviceSynchronize();
  printf("done %u\n", (unsigned int)sizeof(float));
}
