// HIP takes any pointer where the driver wants a hipDeviceptr_t; CUDA's driver wants the integer
// CUdeviceptr (written for this test).
#include <hip/hip_runtime.h>
#include <vector>

hipDeviceptr_t pick_buffer(int which);

struct Buffers {
  float* dev;
  size_t bytes;
};

int main() {
  float host[16] = {};
  float* d_in;
  float* d_out;
  float* global_ptr;
  size_t global_size;
  hipModule_t module;
  hipInit(0);
  hipModuleLoad(&module, "kernels.co");
  hipMalloc((void**)&d_in, sizeof(host));
  hipMalloc((void**)&d_out, sizeof(host));
  hipMemcpyHtoD(d_in, host, sizeof(host));
  hipMemcpyHtoD(static_cast<hipDeviceptr_t>(d_out), host, sizeof(host));
  hipMemcpyHtoD(hipDeviceptr_t(d_out), host, sizeof(host));
  hipModuleGetGlobal((void**)&global_ptr, &global_size, module, "table");
  hipMemcpyDtoH(host, d_out + 4, 4 * sizeof(float));
  hipMemcpyDtoH(host, &d_in[2], sizeof(float));
  hipMemcpyDtoH(host, (void*)global_ptr, sizeof(float));
  hipMemcpyDtoH(host, pick_buffer(1), sizeof(float));
  Buffers bufs{d_out, sizeof(host)};
  hipMemcpyDtoH(host, bufs.dev, bufs.bytes);
  std::vector<hipDeviceptr_t> list(1, pick_buffer(0));
  hipMemcpyDtoH(host, list[0], sizeof(float));
  hipFree(d_in);
  hipFree(d_out);
  return 0;
}
