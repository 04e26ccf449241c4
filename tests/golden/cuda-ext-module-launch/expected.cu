// hipExtModuleLaunchKernel (hip_ext.h): sizes in work-items, events around the launch; runtime
// code, so the module's kernel is a cudaKernel_t (written for this test).
#include "ferry/compat_cuda.h" /* ferry-hip: (none) */
#include <cuda_runtime.h>

int launch(cudaKernel_t f, cudaStream_t stream, void** params, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaError_t e = ferry::cuda_compat::ext_module_launch_kernel(f, n, 1, 1, 64, 1, 1, 0, stream, params, nullptr, start, stop);
  if (e != cudaSuccess) return 1;
  e = ferry::cuda_compat::ext_module_launch_kernel(f, n, 1, 1, 64, 1, 1, 0, stream, params, nullptr);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return e == cudaSuccess ? 0 : 1;
}

int main() {
  cudaLibrary_t module;
  cudaKernel_t f;
  cudaLibraryLoadFromFile(&module, "kernels.co", nullptr, nullptr, 0, nullptr, nullptr, 0);
  cudaLibraryGetKernel(&f, module, "scale");
  return launch(f, nullptr, nullptr, 256);
}
