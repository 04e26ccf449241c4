// cusparseGetErrorString: hipSPARSE has it from ROCm 6.0; for ROCm 5.2 Ferry's compat header
// defines it.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <cstdio>
#include <hipsparse/hipsparse.h>
#include "ferry/compat/hipsparse.h"

#define CHECK_CUSPARSE(call)                                                        \
  do {                                                                              \
    hipsparseStatus_t s = (call);                                                    \
    if (s != HIPSPARSE_STATUS_SUCCESS)                                               \
      std::printf("%s: %s (%s)\n", #call, hipsparseGetErrorString(s), hipsparseGetErrorName(s)); \
  } while (0)

int main() {
  hipsparseHandle_t handle;
  CHECK_CUSPARSE(hipsparseCreate(&handle));
  CHECK_CUSPARSE(hipsparseDestroy(handle));
  return 0;
}
