// A runtime-API program that also includes <cuda.h> (for one driver query):
// its error variables hold runtime results, and only the driver call's result is a CUresult.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

static int driver_version() {
  int v = 0;
  CUresult r = cuDriverGetVersion(&v);
  if (r != CUDA_SUCCESS) return -1;
  return v;
}

int main() {
  const int n = 1 << 10;
  float *d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(float));
  if (err != cudaSuccess) {
    std::printf("cudaMalloc: %s\n", cudaGetErrorString(err));
    return 1;
  }
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  err = cudaDeviceSynchronize();
  if (err != cudaSuccess) return 1;
  cudaFree(d);
  std::printf("driver %d\n", driver_version());
  return 0;
}
