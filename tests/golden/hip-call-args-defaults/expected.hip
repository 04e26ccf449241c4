// CUDA's runtime API has C++ default arguments and overloads HIP's C declarations lack (seen in
// cuda-samples' simpleIPC, streamOrderedAllocationP2P, simpleTexture3D, bilateralFilter): the
// omitted flags are written out, cudaEventCreate with flags becomes hipEventCreateWithFlags and a
// typed pointer to cudaMallocPitch gets the cast CUDA's template overload did.
#include <hip/hip_runtime.h>

int setup(hipStream_t s1, hipStream_t s2, int width, int height) {
  hipEvent_t done, ipc;
  hipEventCreate(&done);
  hipEventCreateWithFlags /* ferry-cuda: cudaEventCreate */(&ipc, hipEventDisableTiming | hipEventInterprocess);
  hipEventRecord(done, s1);
  hipStreamWaitEvent(s2, done, 0 /* ferry-cuda: (none) */);
  hipStreamWaitEvent(s2, ipc, 0);  // written in full: only renamed

  unsigned int* image = nullptr;
  size_t pitch = 0;
  hipMallocPitch((reinterpret_cast<void**>(&image)) /* ferry-cuda: &image */, &pitch, sizeof(unsigned int) * width, height);

  hipArray_t volume = nullptr;
  hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipMalloc3DArray(&volume, &desc, make_hipExtent(width, height, 4), 0 /* ferry-cuda: (none) */);
  hipFreeArray(volume);
  hipFree(image);
  return hipEventDestroy(done) == hipSuccess ? 0 : 1;
}
