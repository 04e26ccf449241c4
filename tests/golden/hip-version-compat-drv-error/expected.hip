// The driver API's error strings (the shape of cuda-samples' helper_cuda_drvapi.h and
// helper_cuda.h): HIP has hipDrvGetErrorString from ROCm 5.5 on; for HIP 5.2 the output
// includes Ferry's compat header ferry/compat/drv_error.h.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <cstdio>
#include "ferry/compat/drv_error.h"

#define CHECK_DRV(call)                                                          \
  do {                                                                           \
    hipError_t /* ferry-cuda: CUresult */ r_ = (call);                                                        \
    if (r_ != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) {                                                    \
      const char *name_ = nullptr, *text_ = nullptr;                             \
      hipDrvGetErrorName(r_, &name_);                                                \
      hipDrvGetErrorString(r_, &text_);                                              \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #call, text_, name_);         \
    }                                                                            \
  } while (0)

int main() {
  CHECK_DRV(hipInit(0));
  hipDevice_t dev;
  CHECK_DRV(hipDeviceGet(&dev, 0));
  return 0;
}
