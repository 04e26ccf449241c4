// One HIP error type for driver and runtime calls: a helper taking hipError_t checks both, and the
// HCC-era HIP_SUCCESS enumerator and umbrella header (written for this test).
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

static void check(cudaError_t err, int line) {
  if (cudaSuccess != err) {
    std::fprintf(stderr, "line %d: %s\n", line, cudaGetErrorString(err));
    std::exit(1);
  }
}
#define CHECK(x) check((x), __LINE__)

int main() {
  CUdevice device;
  CUcontext context;
  CUdeviceptr buf;
  float host[4] = {1, 2, 3, 4};
  CHECK(static_cast<cudaError_t>(cuInit(0)));
  CHECK(static_cast<cudaError_t>(cuDeviceGet(&device, 0)));
  CHECK(static_cast<cudaError_t>(cuCtxCreate(&context, nullptr, 0, device)));
  CHECK(cudaMalloc((void**)&buf, sizeof(host)));
  CHECK(static_cast<cudaError_t>(cuMemcpyHtoD(buf, host, sizeof(host))));
  CUresult e = cuCtxDestroy(context);
  if (e != CUDA_SUCCESS) return 1;
  return 0;
}
