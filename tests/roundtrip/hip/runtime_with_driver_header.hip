// The HIP side of a runtime-API program: nothing here comes from the driver API.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 10;
  float *d = nullptr;
  hipError_t err = hipMalloc(&d, n * sizeof(float));
  if (err != hipSuccess) {
    std::printf("hipMalloc: %s\n", hipGetErrorString(err));
    return 1;
  }
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, d, 2.0f, n);
  err = hipDeviceSynchronize();
  if (err != hipSuccess) return 1;
  int v = 0;
  if (hipDriverGetVersion(&v) != hipSuccess) return 1;
  hipFree(d);
  return 0;
}
