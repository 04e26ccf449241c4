// Driver-API module code with an AMD extension launch (written for this test): HIP -> CUDA writes
// <cuda.h> and the compat include at the top; a second round trip keeps their order.
#include <cuda.h> /* ferry-hip: (none) */
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>

int main() {
  CUmodule module;
  CUfunction f;
  void* d;
  CUcontext ctx;
  cuInit(0);
  cuCtxCreate(&ctx, nullptr, 0, 0);
  cuModuleLoad(&module, "kernels.co");
  cuModuleGetFunction(&f, module, "scale");
  cudaMalloc(&d, 256);
  void* params[] = {&d};
  ferry::cuda_compat::ext_module_launch_kernel(f, 256, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr);
  cuModuleUnload(module);
  return 0;
}
