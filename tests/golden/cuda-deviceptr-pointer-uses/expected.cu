// hipDeviceptr_t is a void* in HIP: these buffers are allocated, freed, copied and compared as
// pointers, and handed to the driver's copy once (written for this test).
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <cstdio>

struct Params {
  void* in;
  void* out;
};

int main() {
  float host[64] = {};
  void* in, *out;
  if (cudaMalloc(&in, sizeof(host)) != cudaSuccess) return 1;
  if (cudaMalloc(&out, sizeof(host)) != cudaSuccess) return 1;
  if (in == nullptr || out == nullptr) return 1;
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  cuMemcpyHtoD((CUdeviceptr)out, host, sizeof(host));
  Params p;
  p.in = in;
  p.out = out;
  cudaMemset(out, 0, sizeof(host));
  float* typed = static_cast<float*>(out);
  std::printf("%p %p\n", in, (void*)typed);
  void* moved = in;
  cudaMemcpy(host, moved, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  return p.in == p.out;
}
