// Driver-style HIP code that never calls hipInit: HIP initialises itself on the first call,
// CUDA's driver API needs cuInit first (written for this test).
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x)                                              \
  do {                                                        \
    cudaError_t e_ = (x);                                      \
    if (e_ != cudaSuccess) std::printf("error %d\n", (int)e_); \
  } while (0)

int main() {
  CUdevice device;
  cuInit(0);  // ferry: CUDA's driver API needs cuInit before its first call
  CHECK(static_cast<cudaError_t>(cuDeviceGet(&device, 0)));
  CUcontext context;
  CHECK(static_cast<cudaError_t>(cuCtxCreate(&context, nullptr, 0, device)));
  CUmodule module;
  CHECK(static_cast<cudaError_t>(cuModuleLoad(&module, "kernel.code")));
  CUfunction function;
  CHECK(static_cast<cudaError_t>(cuModuleGetFunction(&function, module, "twice")));
  CHECK(static_cast<cudaError_t>(cuModuleUnload(module)));
  CHECK(static_cast<cudaError_t>(cuCtxDestroy(context)));
  return 0;
}
