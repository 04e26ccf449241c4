// The driver API's error strings (the shape of cuda-samples' helper_cuda_drvapi.h and
// helper_cuda.h): HIP has hipDrvGetErrorString from ROCm 5.5 on; for HIP 5.2 the output
// includes Ferry's compat header ferry/compat/drv_error.h.
#include <cuda.h>
#include <cstdio>

#define CHECK_DRV(call)                                                          \
  do {                                                                           \
    CUresult r_ = (call);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                    \
      const char *name_ = nullptr, *text_ = nullptr;                             \
      cuGetErrorName(r_, &name_);                                                \
      cuGetErrorString(r_, &text_);                                              \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #call, text_, name_);         \
    }                                                                            \
  } while (0)

int main() {
  CHECK_DRV(cuInit(0));
  CUdevice dev;
  CHECK_DRV(cuDeviceGet(&dev, 0));
  return 0;
}
