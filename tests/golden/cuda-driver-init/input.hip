// Driver-style HIP code that never calls hipInit: HIP initialises itself on the first call,
// CUDA's driver API needs cuInit first (written for this test).
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x)                                              \
  do {                                                        \
    hipError_t e_ = (x);                                      \
    if (e_ != hipSuccess) std::printf("error %d\n", (int)e_); \
  } while (0)

int main() {
  hipDevice_t device;
  CHECK(hipDeviceGet(&device, 0));
  hipCtx_t context;
  CHECK(hipCtxCreate(&context, 0, device));
  hipModule_t module;
  CHECK(hipModuleLoad(&module, "kernel.code"));
  hipFunction_t function;
  CHECK(hipModuleGetFunction(&function, module, "twice"));
  CHECK(hipModuleUnload(module));
  CHECK(hipCtxDestroy(context));
  return 0;
}
