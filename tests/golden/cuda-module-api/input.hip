// HIP's module API: loaded through the runtime's library API of CUDA >= 12 (no libcuda to link).
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(x)                                                              \
  do {                                                                        \
    const hipError_t e = (x);                                                 \
    if (e != hipSuccess) std::printf("%s: %s\n", #x, hipGetErrorString(e));   \
  } while (0)

void run(const char* path, float* d, unsigned n) {
  hipModule_t module;
  hipFunction_t kernel;
  CHECK(hipModuleLoad(&module, path));
  CHECK(hipModuleGetFunction(&kernel, module, "scale"));
  void* args[] = {&d, &n};
  CHECK(hipModuleLaunchKernel(kernel, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CHECK(hipDeviceSynchronize());
  CHECK(hipModuleUnload(module));
}
