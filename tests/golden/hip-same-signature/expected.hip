// Overloads on CUDA types that HIP merges into one: both error types become hipError_t and both
// stream types become hipStream_t, so the pairs below would be redefinitions once migrated.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
/* ferry-cuda: #include <cuda_runtime.h> */
#include <cstdio>

// One name per API: the runtime's error, then the driver's.
#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
static const char *errorName(hipError_t e) { return hipGetErrorName(e); }
#define FERRY_HAVE_errorName__hipError_t
#endif

#if !defined(FERRY_HAVE_errorName__hipError_t)  // an overload above has these parameters once migrated [FRY4107]
static const char *errorName(hipError_t /* ferry-cuda: CUresult */ e) {
  switch (e) {
    case hipSuccess /* ferry-cuda: CUDA_SUCCESS */:
      return "CUDA_SUCCESS";
    case hipErrorInvalidValue /* ferry-cuda: CUDA_ERROR_INVALID_VALUE */:
      return "CUDA_ERROR_INVALID_VALUE";
    default:
      return "CUresult";
  }
}
#define FERRY_HAVE_errorName__hipError_t
#endif

// Not merged with the others: int stays int.
static const char *errorName(int code) { return code == 0 ? "ok" : "error"; }

// The first of this pair is compiled out: the second must then be compiled.
#ifdef GOLDEN_NEVER_DEFINED
inline int streamKind(hipStream_t s) { return s == 0 ? 0 : 1; }
#define FERRY_HAVE_streamKind__hipStream_t
#endif
#if !defined(FERRY_HAVE_streamKind__hipStream_t)  // an overload above has these parameters once migrated [FRY4107]
inline int streamKind(hipStream_t /* ferry-cuda: CUstream */ s) { return s == nullptr ? 0 : 2; }
#define FERRY_HAVE_streamKind__hipStream_t
#endif
 int after_on_same_line = 0;

// Alike as written, in exclusive branches: left as written.
#if defined(USE_SHORT_NAMES)
inline const char *kindName(hipStream_t) { return "s"; }
#else
inline const char *kindName(hipStream_t) { return "stream"; }
#endif

template <typename T>
void check(T result, const char *what) {
  if (result) std::fprintf(stderr, "%s failed: %s\n", what, errorName(result));
}

int main() {
  hipStream_t s;
  check(hipStreamCreate(&s), "cudaStreamCreate");
  std::printf("%d %s %s %d\n", streamKind(s), kindName(s), errorName(0), after_on_same_line);
  check(hipStreamDestroy(s), "cudaStreamDestroy");
  return 0;
}
