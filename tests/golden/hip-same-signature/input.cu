// Overloads on CUDA types that HIP merges into one: both error types become hipError_t and both
// stream types become hipStream_t, so the pairs below would be redefinitions once migrated.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

// One name per API: the runtime's error, then the driver's.
#ifdef __DRIVER_TYPES_H__
static const char *errorName(cudaError_t e) { return cudaGetErrorName(e); }
#endif

static const char *errorName(CUresult e) {
  switch (e) {
    case CUDA_SUCCESS:
      return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE:
      return "CUDA_ERROR_INVALID_VALUE";
    default:
      return "CUresult";
  }
}

// Not merged with the others: int stays int.
static const char *errorName(int code) { return code == 0 ? "ok" : "error"; }

// The first of this pair is compiled out: the second must then be compiled.
#ifdef GOLDEN_NEVER_DEFINED
inline int streamKind(cudaStream_t s) { return s == 0 ? 0 : 1; }
#endif
inline int streamKind(CUstream s) { return s == nullptr ? 0 : 2; } int after_on_same_line = 0;

// Alike as written, in exclusive branches: left as written.
#if defined(USE_SHORT_NAMES)
inline const char *kindName(cudaStream_t) { return "s"; }
#else
inline const char *kindName(cudaStream_t) { return "stream"; }
#endif

template <typename T>
void check(T result, const char *what) {
  if (result) std::fprintf(stderr, "%s failed: %s\n", what, errorName(result));
}

int main() {
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  std::printf("%d %s %s %d\n", streamKind(s), kindName(s), errorName(0), after_on_same_line);
  check(cudaStreamDestroy(s), "cudaStreamDestroy");
  return 0;
}
