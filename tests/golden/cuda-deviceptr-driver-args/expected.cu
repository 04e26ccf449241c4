// HIP takes any pointer where the driver wants a hipDeviceptr_t; CUDA's driver wants the integer
// CUdeviceptr (written for this test).
#include <cuda.h> /* ferry-hip: (none) */
#include <cuda_runtime.h>
#include <vector>

CUdeviceptr pick_buffer(int which);

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
  CUmodule module;
  cuInit(0);
  cuModuleLoad(&module, "kernels.co");
  cudaMalloc((void**)&d_in, sizeof(host));
  cudaMalloc((void**)&d_out, sizeof(host));
  cuMemcpyHtoD((CUdeviceptr)d_in, host, sizeof(host));
  cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(d_out), host, sizeof(host));
  cuMemcpyHtoD(CUdeviceptr(d_out), host, sizeof(host));
  cuModuleGetGlobal((CUdeviceptr*)&global_ptr, &global_size, module, "table");
  cuMemcpyDtoH(host, (CUdeviceptr)(d_out + 4), 4 * sizeof(float));
  cuMemcpyDtoH(host, (CUdeviceptr)(&d_in[2]), sizeof(float));
  cuMemcpyDtoH(host, (CUdeviceptr)global_ptr, sizeof(float));
  cuMemcpyDtoH(host, pick_buffer(1), sizeof(float));
  Buffers bufs{d_out, sizeof(host)};
  cuMemcpyDtoH(host, (CUdeviceptr)(bufs.dev), bufs.bytes);
  std::vector<CUdeviceptr> list(1, pick_buffer(0));
  cuMemcpyDtoH(host, list[0], sizeof(float));
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
