// A helper that tests whether cuSPARSE is included through a macro cusparse.h defines, to provide
// an error-string overload only then (the pattern of cuda-samples' helper headers). The test must
// still hold after migration, or the call below finds no overload for hipsparseStatus_t.
#include <hip/hip_runtime.h> /* ferry-cuda: (none) */
#include <cstdio>
#include <hipsparse/hipsparse.h>

#ifdef _HIPSPARSE_H_
static const char *status_name(hipsparseStatus_t s) {
  return s == HIPSPARSE_STATUS_SUCCESS ? "CUSPARSE_STATUS_SUCCESS" : "cuSPARSE error";
}
#endif

int main() {
  hipsparseHandle_t h;
  const hipsparseStatus_t s = hipsparseCreate(&h);
  std::printf("%s\n", status_name(s));
  hipsparseDestroy(h);
  return 0;
}
