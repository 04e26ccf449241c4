// HIP that casts the built-in indices it prints (the CUDA -> HIP target writes these casts, for
// clang's AMDGPU printf). CUDA's built-ins are unsigned ints, so the way back drops exactly that
// cast; other casts and expressions are the user's.
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void hello(const float* v) {
  printf("block %u thread %u of %u\n", (unsigned int)blockIdx.x, (unsigned int)threadIdx.x, (unsigned int)blockDim.x);
  printf("row %u, grid %d\n", (unsigned int)(blockIdx.y * blockDim.y + threadIdx.y), (int)gridDim.x);
  std::printf("z %u, value %f\n", (unsigned int)threadIdx.z, v[threadIdx.x]);
}

int main() {
  hipLaunchKernelGGL(hello, dim3(2), dim3(2), 0, 0, nullptr);
  hipDeviceSynchronize();
  printf("done %u\n", (unsigned int)sizeof(float));
}
