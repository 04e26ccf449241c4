// Loading a precompiled module with the driver API.
#include <cstdio>
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

#define CU_CHECK(x)                                            \
  do {                                                         \
    hipError_t r_ = (x);                                         \
    if (r_ != hipSuccess) {                                  \
      fprintf(stderr, "driver error %d at %s\n", r_, #x);      \
      return -1;                                               \
    }                                                          \
  } while (0)

int launch_from_module(const char* path, hipDeviceptr_t data, int n) {
  hipDevice_t dev;
  hipCtx_t ctx;
  hipModule_t mod;
  hipFunction_t fn;
  CU_CHECK(hipInit(0));
  CU_CHECK(hipDeviceGet(&dev, 0));
  CU_CHECK(hipDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(hipCtxSetCurrent(ctx));
  CU_CHECK(hipModuleLoad(&mod, path));
  CU_CHECK(hipModuleGetFunction(&fn, mod, "scale"));
  void* args[] = {&data, &n};
  CU_CHECK(hipModuleLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CU_CHECK(hipCtxSynchronize());
  CU_CHECK(hipModuleUnload(mod));
  CU_CHECK(hipDevicePrimaryCtxRelease(dev));
  return 0;
}
