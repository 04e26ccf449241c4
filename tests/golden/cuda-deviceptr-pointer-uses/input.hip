// hipDeviceptr_t is a void* in HIP: these buffers are allocated, freed, copied and compared as
// pointers, and handed to the driver's copy once (written for this test).
#include <hip/hip_runtime.h>
#include <cstdio>

struct Params {
  void* in;
  void* out;
};

int main() {
  float host[64] = {};
  hipDeviceptr_t in, out;
  if (hipMalloc(&in, sizeof(host)) != hipSuccess) return 1;
  if (hipMalloc(&out, sizeof(host)) != hipSuccess) return 1;
  if (in == nullptr || out == nullptr) return 1;
  hipMemcpy(in, host, sizeof(host), hipMemcpyHostToDevice);
  hipMemcpyHtoD(out, host, sizeof(host));
  Params p;
  p.in = in;
  p.out = out;
  hipMemset(out, 0, sizeof(host));
  float* typed = static_cast<float*>(out);
  std::printf("%p %p\n", in, (void*)typed);
  hipDeviceptr_t moved = in;
  hipMemcpy(host, moved, sizeof(host), hipMemcpyDeviceToHost);
  hipFree(in);
  hipFree(out);
  return p.in == p.out;
}
