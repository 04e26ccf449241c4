// Calls where CUDA's C++ API has a default argument or an overload HIP lacks (issue #28, class 9):
// HIP's call is written out on the way there and recorded, so the way back gives the short form.
#include <cuda_runtime.h>

int main() {
  cudaStream_t first, second;
  cudaStreamCreate(&first);
  cudaStreamCreate(&second);
  cudaEvent_t done;
  cudaEventCreate(&done, cudaEventDisableTiming);
  cudaEventRecord(done, first);
  cudaStreamWaitEvent(second, done);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t volume;
  cudaMalloc3DArray(&volume, &desc, make_cudaExtent(16, 16, 16));
  cudaFreeArray(volume);
  return 0;
}
