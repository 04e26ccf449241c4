// A HIP program that loads a code object through the module API (driver style: hipInit) and
// allocates through the runtime. Only a result that comes from a driver call in the same
// statement takes the driver's spelling (CUresult, CUDA_SUCCESS); the runtime's stay cudaError_t.
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

int run(const char *path, float *host, int n) {
  cuInit(0);
  CUmodule mod;
  CUfunction fn;
  CUresult lr = cuModuleLoad(&mod, path);
  if (lr != CUDA_SUCCESS) return 1;
  if (cuModuleGetFunction(&fn, mod, "scale") != CUDA_SUCCESS) return 1;
  float *d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(float));
  if (err != cudaSuccess) {
    std::printf("hipMalloc: %s\n", cudaGetErrorString(err));
    return 1;
  }
  err = cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  void *args[] = {&d, &n};
  if (cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS) return 1;
  cudaFree(d);
  cuModuleUnload(mod);
  return err == cudaSuccess ? 0 : 1;
}
