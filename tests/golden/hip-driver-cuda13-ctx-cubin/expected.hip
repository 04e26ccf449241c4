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
  hiprtcGetCodeSize /* ferry-cuda: nvrtcGetCUBINSize */(prog, &size);
  std::vector<char> cubin(size);
  hiprtcGetCode /* ferry-cuda: nvrtcGetCUBIN */(prog, cubin.data());
  hiprtcDestroyProgram(&prog);
  return cubin;
}

int main() {
  hipInit(0);
  hipDevice_t dev;
  hipDeviceGet(&dev, 0);
  CUctxCreateParams params = {};
  hipCtx_t ctx;
  if (hipCtxCreate /* ferry-cuda: cuCtxCreate */(&ctx, /* ferry-cuda: &params, */ 0, dev) != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return 1;
  hipCtx_t other;
  hipCtxCreate /* ferry-cuda: cuCtxCreate */(&other, /* ferry-cuda: NULL, */ hipDeviceScheduleAuto /* ferry-cuda: CU_CTX_SCHED_AUTO */, dev);
  const std::vector<char> cubin = compile_cubin();
  hipModule_t /* ferry-cuda: CUmodule */ module;
  hipModuleLoadData /* ferry-cuda: cuModuleLoadData */(&module, cubin.data());
  hipFunction_t /* ferry-cuda: CUfunction */ fill;
  hipModuleGetFunction /* ferry-cuda: cuModuleGetFunction */(&fill, module, "fill");
  std::printf("%zu bytes\n", cubin.size());
  hipModuleUnload /* ferry-cuda: cuModuleUnload */(module);
  hipCtxDestroy /* ferry-cuda: cuCtxDestroy */(other);
  hipCtxDestroy /* ferry-cuda: cuCtxDestroy */(ctx);
  return 0;
}
