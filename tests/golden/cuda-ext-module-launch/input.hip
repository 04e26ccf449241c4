// hipExtModuleLaunchKernel (hip_ext.h): sizes in work-items, events around the launch; runtime
// code, so the module's kernel is a cudaKernel_t (written for this test).
#include <hip/hip_runtime.h>
#include <hip/hip_ext.h>

int launch(hipFunction_t f, hipStream_t stream, void** params, int n) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipError_t e = hipExtModuleLaunchKernel(f, n, 1, 1, 64, 1, 1, 0, stream, params, nullptr, start, stop);
  if (e != hipSuccess) return 1;
  e = hipExtModuleLaunchKernel(f, n, 1, 1, 64, 1, 1, 0, stream, params, nullptr);
  float ms = 0;
  hipEventElapsedTime(&ms, start, stop);
  return e == hipSuccess ? 0 : 1;
}

int main() {
  hipModule_t module;
  hipFunction_t f;
  hipModuleLoad(&module, "kernels.co");
  hipModuleGetFunction(&f, module, "scale");
  return launch(f, nullptr, nullptr, 256);
}
