// Loading a precompiled module with the driver API.
#include <cstdio>
#include <cuda.h>

#define CU_CHECK(x)                                            \
  do {                                                         \
    CUresult r_ = (x);                                         \
    if (r_ != CUDA_SUCCESS) {                                  \
      fprintf(stderr, "driver error %d at %s\n", r_, #x);      \
      return -1;                                               \
    }                                                          \
  } while (0)

int launch_from_module(const char* path, CUdeviceptr data, int n) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&dev, 0));
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));
  CU_CHECK(cuModuleLoad(&mod, path));
  CU_CHECK(cuModuleGetFunction(&fn, mod, "scale"));
  void* args[] = {&data, &n};
  CU_CHECK(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CU_CHECK(cuCtxSynchronize());
  CU_CHECK(cuModuleUnload(mod));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
