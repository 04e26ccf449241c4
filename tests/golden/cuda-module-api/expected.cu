// HIP's module API: loaded through the runtime's library API of CUDA >= 12 (no libcuda to link).
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x)                                                              \
  do {                                                                        \
    const cudaError_t e = (x);                                                 \
    if (e != cudaSuccess) std::printf("%s: %s\n", #x, cudaGetErrorString(e));   \
  } while (0)

void run(const char* path, float* d, unsigned n) {
  cudaLibrary_t module;
  cudaKernel_t kernel;
  CHECK(cudaLibraryLoadFromFile(&module, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CHECK(cudaLibraryGetKernel(&kernel, module, "scale"));
  void* args[] = {&d, &n};
  CHECK(ferry::cuda_compat::module_launch_kernel(kernel, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaLibraryUnload(module));
}
