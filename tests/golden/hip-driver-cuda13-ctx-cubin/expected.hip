// Run-time compilation with NVRTC and the CUDA 13 driver API: the program takes the CUBIN
// (the binary cuModuleLoadData loads) and creates its context with CUDA 13's cuCtxCreate, whose
// second argument is a CUctxCreateParams*. hipRTC's loadable binary is the code object of
// hiprtcGetCode, and hipCtxCreate takes (ctx, flags, device).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <hip/hiprtc.h>
#include <cstdio>
#include <vector>
#include "ferry/compat/ctx_params.h"

static const char* kSource = "extern \"C\" __global__ void fill(float* p) { p[threadIdx.x] = 1.0f; }";

static std::vector<char> compile_cubin() {
  hiprtcProgram prog;
  hiprtcCreateProgram(&prog, kSource, "fill.cu", 0, nullptr, nullptr);
  hiprtcCompileProgram(prog, 0, nullptr);
  size_t size = 0;
  hiprtcGetCodeSize(prog, &size);
  std::vector<char> cubin(size);
  hiprtcGetCode(prog, cubin.data());
  hiprtcDestroyProgram(&prog);
  return cubin;
}

int main() {
  hipInit(0);
  hipDevice_t dev;
  hipDeviceGet(&dev, 0);
  CUctxCreateParams params = {};
  hipCtx_t ctx;
  if (hipCtxCreate(&ctx, 0, dev) != hipSuccess) return 1;
  hipCtx_t other;
  hipCtxCreate(&other, hipDeviceScheduleAuto, dev);
  const std::vector<char> cubin = compile_cubin();
  hipModule_t module;
  hipModuleLoadData(&module, cubin.data());
  hipFunction_t fill;
  hipModuleGetFunction(&fill, module, "fill");
  std::printf("%zu bytes\n", cubin.size());
  hipModuleUnload(module);
  hipCtxDestroy(other);
  hipCtxDestroy(ctx);
  return 0;
}
