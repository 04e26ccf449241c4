// One HIP error type for driver and runtime calls: a helper taking hipError_t checks both, and the
// HCC-era HIP_SUCCESS enumerator and umbrella header (written for this test).
#include <hip/hip_runtime.h>
#include <hip/hip_hcc.h>
#include <cstdio>
#include <cstdlib>

static void check(hipError_t err, int line) {
  if (HIP_SUCCESS != err) {
    std::fprintf(stderr, "line %d: %s\n", line, hipGetErrorString(err));
    std::exit(1);
  }
}
#define CHECK(x) check((x), __LINE__)

int main() {
  hipDevice_t device;
  hipCtx_t context;
  hipDeviceptr_t buf;
  float host[4] = {1, 2, 3, 4};
  CHECK(hipInit(0));
  CHECK(hipDeviceGet(&device, 0));
  CHECK(hipCtxCreate(&context, 0, device));
  CHECK(hipMalloc((void**)&buf, sizeof(host)));
  CHECK(hipMemcpyHtoD(buf, host, sizeof(host)));
  hipError_t e = hipCtxDestroy(context);
  if (e != hipSuccess) return 1;
  return 0;
}
