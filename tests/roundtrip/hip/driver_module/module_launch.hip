// A HIP program written against the driver API (written for this test): a context, a code object
// loaded and launched from. On CUDA these are cu* functions of libcuda, so its build file links
// CUDA's driver library beside the runtime.
#include <hip/hip_runtime.h>
#include <cstdio>

int main() {
  hipDevice_t dev;
  hipCtx_t ctx;
  hipModule_t mod;
  hipFunction_t fn;
  if (hipInit(0) != hipSuccess || hipDeviceGet(&dev, 0) != hipSuccess) return 1;
  if (hipCtxCreate(&ctx, 0, dev) != hipSuccess) return 1;
  if (hipModuleLoad(&mod, "kernel.code") != hipSuccess) {
    std::printf("no code object\n");
    return 0;
  }
  if (hipModuleGetFunction(&fn, mod, "scale") != hipSuccess) return 1;
  float* d = nullptr;
  if (hipMalloc(&d, 256 * sizeof(float)) != hipSuccess) return 1;
  void* args[] = {&d};
  if (hipModuleLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) != hipSuccess) return 1;
  if (hipCtxSynchronize() != hipSuccess) return 1;
  hipFree(d);
  hipModuleUnload(mod);
  hipCtxDestroy(ctx);
  return 0;
}
