// Helper headers (cuda-samples' helper_cuda.h) test the CUDA headers' include guards to see
// which APIs are declared; the guards map to the HIP headers' own, or the helpers vanish.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <cstdio>

#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#define CHECK(val) check_result((val), #val)
static void check_result(hipError_t e, const char* what) {
  if (e != hipSuccess) std::printf("%s: %s\n", what, hipGetErrorString(e));
}
#endif

#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) || defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)
static int have_runtime = 1;
#else
static int have_runtime = 0;
#endif

#ifdef HIPRAND_H_
static const char* rand_name(hiprandStatus_t s) { return s == HIPRAND_STATUS_SUCCESS ? "ok" : "error"; }
#endif

int main() {
  int n = 0;
  CHECK(hipGetDeviceCount(&n));
  std::printf("%d %d %s\n", n, have_runtime, rand_name(HIPRAND_STATUS_SUCCESS));
  return 0;
}
