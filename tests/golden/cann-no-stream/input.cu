// No stream in scope and no main in this file: the default stream is made explicit with a
// warning, and aclInit/aclFinalize are left to the user.
#include <cuda_runtime.h>

void upload(float *d, const float *h, size_t bytes, int device) {
  cudaSetDevice(device);
  cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
}
