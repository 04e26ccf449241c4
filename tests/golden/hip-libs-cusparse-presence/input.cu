// A helper that tests whether cuSPARSE is included through a macro cusparse.h defines, to provide
// an error-string overload only then (the pattern of cuda-samples' helper headers). The test must
// still hold after migration, or the call below finds no overload for hipsparseStatus_t.
#include <cstdio>
#include <cusparse.h>

#ifdef CUSPARSEAPI
static const char *status_name(cusparseStatus_t s) {
  return s == CUSPARSE_STATUS_SUCCESS ? "CUSPARSE_STATUS_SUCCESS" : "cuSPARSE error";
}
#endif

int main() {
  cusparseHandle_t h;
  const cusparseStatus_t s = cusparseCreate(&h);
  std::printf("%s\n", status_name(s));
  cusparseDestroy(h);
  return 0;
}
