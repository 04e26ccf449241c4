// Run-time compilation with NVRTC and the CUDA 13 driver API: the program takes the CUBIN
// (the binary cuModuleLoadData loads) and creates its context with CUDA 13's cuCtxCreate, whose
// second argument is a CUctxCreateParams*. hipRTC's loadable binary is the code object of
// hiprtcGetCode, and hipCtxCreate takes (ctx, flags, device).
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <vector>

static const char* kSource = "extern \"C\" __global__ void fill(float* p) { p[threadIdx.x] = 1.0f; }";

static std::vector<char> compile_cubin() {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, kSource, "fill.cu", 0, nullptr, nullptr);
  nvrtcCompileProgram(prog, 0, nullptr);
  size_t size = 0;
  nvrtcGetCUBINSize(prog, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);
  return cubin;
}

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUctxCreateParams params = {};
  CUcontext ctx;
  if (cuCtxCreate(&ctx, &params, 0, dev) != CUDA_SUCCESS) return 1;
  CUcontext other;
  cuCtxCreate(&other, NULL, CU_CTX_SCHED_AUTO, dev);
  const std::vector<char> cubin = compile_cubin();
  CUmodule module;
  cuModuleLoadData(&module, cubin.data());
  CUfunction fill;
  cuModuleGetFunction(&fill, module, "fill");
  std::printf("%zu bytes\n", cubin.size());
  cuModuleUnload(module);
  cuCtxDestroy(other);
  cuCtxDestroy(ctx);
  return 0;
}
