// Driver-API module code with an AMD extension launch (written for this test): HIP -> CUDA writes
// <cuda.h> and the compat include at the top; a second round trip keeps their order.
#include <hip/hip_runtime.h>
#include <hip/hip_ext.h>

int main() {
  hipModule_t module;
  hipFunction_t f;
  hipDeviceptr_t d;
  hipCtx_t ctx;
  hipInit(0);
  hipCtxCreate(&ctx, 0, 0);
  hipModuleLoad(&module, "kernels.co");
  hipModuleGetFunction(&f, module, "scale");
  hipMalloc(&d, 256);
  void* params[] = {&d};
  hipExtModuleLaunchKernel(f, 256, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr);
  hipModuleUnload(module);
  return 0;
}
