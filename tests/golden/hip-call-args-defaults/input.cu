// CUDA's runtime API has C++ default arguments and overloads HIP's C declarations lack (seen in
// cuda-samples' simpleIPC, streamOrderedAllocationP2P, simpleTexture3D, bilateralFilter): the
// omitted flags are written out, cudaEventCreate with flags becomes hipEventCreateWithFlags and a
// typed pointer to cudaMallocPitch gets the cast CUDA's template overload did.
#include <cuda_runtime.h>

int setup(cudaStream_t s1, cudaStream_t s2, int width, int height) {
  cudaEvent_t done, ipc;
  cudaEventCreate(&done);
  cudaEventCreate(&ipc, cudaEventDisableTiming | cudaEventInterprocess);
  cudaEventRecord(done, s1);
  cudaStreamWaitEvent(s2, done);
  cudaStreamWaitEvent(s2, ipc, 0);  // written in full: only renamed

  unsigned int* image = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&image, &pitch, sizeof(unsigned int) * width, height);

  cudaArray_t volume = nullptr;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMalloc3DArray(&volume, &desc, make_cudaExtent(width, height, 4));
  cudaFreeArray(volume);
  cudaFree(image);
  return cudaEventDestroy(done) == cudaSuccess ? 0 : 1;
}
