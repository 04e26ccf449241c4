// Loading a precompiled module with the driver API.
#include <cstdio>
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */

#define CU_CHECK(x)                                            \
  do {                                                         \
    hipError_t /* ferry-cuda: CUresult */ r_ = (x);                                         \
    if (r_ != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) {                                  \
      fprintf(stderr, "driver error %d at %s\n", r_, #x);      \
      return -1;                                               \
    }                                                          \
  } while (0)

int launch_from_module(const char* path, hipDeviceptr_t data, int n) {
  hipDevice_t dev;
  hipCtx_t ctx;
  hipModule_t /* ferry-cuda: CUmodule */ mod;
  hipFunction_t /* ferry-cuda: CUfunction */ fn;
  CU_CHECK(hipInit(0));
  CU_CHECK(hipDeviceGet(&dev, 0));
  CU_CHECK(hipDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(hipCtxSetCurrent /* ferry-cuda: cuCtxSetCurrent */(ctx));
  CU_CHECK(hipModuleLoad /* ferry-cuda: cuModuleLoad */(&mod, path));
  CU_CHECK(hipModuleGetFunction /* ferry-cuda: cuModuleGetFunction */(&fn, mod, "scale"));
  void* args[] = {&data, &n};
  CU_CHECK(hipModuleLaunchKernel /* ferry-cuda: cuLaunchKernel */(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CU_CHECK(hipCtxSynchronize /* ferry-cuda: cuCtxSynchronize */());
  CU_CHECK(hipModuleUnload /* ferry-cuda: cuModuleUnload */(mod));
  CU_CHECK(hipDevicePrimaryCtxRelease(dev));
  return 0;
}
