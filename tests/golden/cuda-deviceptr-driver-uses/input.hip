// Driver-API code (it initialises the driver): hipDeviceptr_t values go to the driver's copies and
// memset, which take a CUdeviceptr on CUDA; a runtime call or two take them as pointers
// (written for this test).
#include <hip/hip_runtime.h>

static float* staging;

int run(hipDeviceptr_t shared) {
  hipDeviceptr_t a, b;
  float host[32] = {};
  hipInit(0);
  hipMalloc((void**)&a, sizeof(host));
  hipMalloc((void**)&b, sizeof(host));
  hipMemcpyHtoD(a, host, sizeof(host));
  hipMemsetD32(b, 0, 32);
  hipMemcpyDtoD(b, a, sizeof(host));
  hipMemcpyDtoH(host, b, sizeof(host));
  hipMemcpyDtoH(host, shared, sizeof(host));
  hipDeviceptr_t c = staging;
  hipMemcpyHtoD(c, host, sizeof(host));
  c = a;
  hipMemcpyDtoD(c, (char*)b + 16, 4);
  hipFree(a);
  hipFree(b);
  return hipFree(shared) == hipSuccess ? 0 : 1;
}
