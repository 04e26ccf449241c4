// cusparseGetErrorString: hipSPARSE has it from ROCm 6.0; for ROCm 5.2 Ferry's compat header
// defines it.
#include <cstdio>
#include <cusparse.h>

#define CHECK_CUSPARSE(call)                                                        \
  do {                                                                              \
    cusparseStatus_t s = (call);                                                    \
    if (s != CUSPARSE_STATUS_SUCCESS)                                               \
      std::printf("%s: %s (%s)\n", #call, cusparseGetErrorString(s), cusparseGetErrorName(s)); \
  } while (0)

int main() {
  cusparseHandle_t handle;
  CHECK_CUSPARSE(cusparseCreate(&handle));
  CHECK_CUSPARSE(cusparseDestroy(handle));
  return 0;
}
