// CUDA 13's cuCtxCreate takes creation parameters HIP's hipCtxCreate has no place for (issue #28,
// class 9): an empty or null one is dropped on the way there and recorded, so it comes back.
#include <cuda.h>
#include <cstdio>

static CUcontext open_context(CUdevice dev) {
  CUctxCreateParams params = {};
  CUcontext ctx;
  if (cuCtxCreate(&ctx, &params, 0, dev) != CUDA_SUCCESS) return nullptr;
  return ctx;
}

static CUcontext open_plain(CUdevice dev) {
  CUcontext ctx;
  cuCtxCreate(&ctx, NULL, CU_CTX_SCHED_AUTO,
              dev);
  return ctx;
}

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext a = open_context(dev), b = open_plain(dev);
  std::printf("%p %p\n", (void *)a, (void *)b);
  return 0;
}
