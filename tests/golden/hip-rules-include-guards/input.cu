// Helper headers (cuda-samples' helper_cuda.h) test the CUDA headers' include guards to see
// which APIs are declared; the guards map to the HIP headers' own, or the helpers vanish.
#include <cuda_runtime.h>
#include <curand.h>
#include <cstdio>

#ifdef __DRIVER_TYPES_H__
#define CHECK(val) check_result((val), #val)
static void check_result(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::printf("%s: %s\n", what, cudaGetErrorString(e));
}
#endif

#if defined(__cuda_cuda_h__) || defined(__CUDA_RUNTIME_H__)
static int have_runtime = 1;
#else
static int have_runtime = 0;
#endif

#ifdef CURAND_H_
static const char* rand_name(curandStatus_t s) { return s == CURAND_STATUS_SUCCESS ? "ok" : "error"; }
#endif

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  std::printf("%d %d %s\n", n, have_runtime, rand_name(CURAND_STATUS_SUCCESS));
  return 0;
}
