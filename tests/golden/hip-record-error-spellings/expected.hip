// A runtime-API program that also includes <cuda.h> (for one driver query):
// its error variables hold runtime results, and only the driver call's result is a CUresult.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
/* ferry-cuda: #include <cuda_runtime.h> */
#include <cstdio>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

static int driver_version() {
  int v = 0;
  hipError_t /* ferry-cuda: CUresult */ r = hipDriverGetVersion /* ferry-cuda: cuDriverGetVersion */(&v);
  if (r != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return -1;
  return v;
}

int main() {
  const int n = 1 << 10;
  float *d = nullptr;
  hipError_t err = hipMalloc(&d, n * sizeof(float));
  if (err != hipSuccess) {
    std::printf("cudaMalloc: %s\n", hipGetErrorString(err));
    return 1;
  }
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  err = hipDeviceSynchronize();
  if (err != hipSuccess) return 1;
  hipFree(d);
  std::printf("driver %d\n", driver_version());
  return 0;
}
