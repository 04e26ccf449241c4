// A HIP program that loads a code object through the module API (driver style: hipInit) and
// allocates through the runtime. Only a result that comes from a driver call in the same
// statement takes the driver's spelling (CUresult, CUDA_SUCCESS); the runtime's stay cudaError_t.
#include <hip/hip_runtime.h>
#include <cstdio>

int run(const char *path, float *host, int n) {
  hipInit(0);
  hipModule_t mod;
  hipFunction_t fn;
  hipError_t lr = hipModuleLoad(&mod, path);
  if (lr != hipSuccess) return 1;
  if (hipModuleGetFunction(&fn, mod, "scale") != hipSuccess) return 1;
  float *d = nullptr;
  hipError_t err = hipMalloc(&d, n * sizeof(float));
  if (err != hipSuccess) {
    std::printf("hipMalloc: %s\n", hipGetErrorString(err));
    return 1;
  }
  err = hipMemcpy(d, host, n * sizeof(float), hipMemcpyHostToDevice);
  void *args[] = {&d, &n};
  if (hipModuleLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) != hipSuccess) return 1;
  hipFree(d);
  hipModuleUnload(mod);
  return err == hipSuccess ? 0 : 1;
}
