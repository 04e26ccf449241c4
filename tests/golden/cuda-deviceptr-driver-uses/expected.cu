// Driver-API code (it initialises the driver): hipDeviceptr_t values go to the driver's copies and
// memset, which take a CUdeviceptr on CUDA; a runtime call or two take them as pointers
// (written for this test).
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>

static float* staging;

int run(CUdeviceptr shared) {
  CUdeviceptr a, b;
  float host[32] = {};
  cuInit(0);
  cudaMalloc((void**)&a, sizeof(host));
  cudaMalloc((void**)&b, sizeof(host));
  cuMemcpyHtoD(a, host, sizeof(host));
  cuMemsetD32(b, 0, 32);
  cuMemcpyDtoD(b, a, sizeof(host));
  cuMemcpyDtoH(host, b, sizeof(host));
  cuMemcpyDtoH(host, shared, sizeof(host));
  CUdeviceptr c = (CUdeviceptr)staging;
  cuMemcpyHtoD(c, host, sizeof(host));
  c = a;
  cuMemcpyDtoD(c, (CUdeviceptr)((char*)b + 16), 4);
  cudaFree((void*)a);
  cudaFree((void*)b);
  return cudaFree((void*)shared) == cudaSuccess ? 0 : 1;
}
