// Calls whose arguments differ between CUDA and HIP: CUDA 13's cudaMemLocation arguments become
// HIP's device id (FRY4104; hip-call-args-unreadable has FRY4105), a typed pointer to
// cudaHostAlloc needs hipHostMalloc's template overload (cudaHostGetDevicePointer a cast), and
// __ffs/__ffsll of a 64-bit or long argument would be ambiguous between HIP's two overloads.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void first_set(const uint64_t* masks, const long* words, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ffsll(masks[i]) + __ffs(words[i]);
}

int run(int dev, cudaStream_t s, size_t n) {
  float* managed = nullptr;
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaMemPrefetchAsync(managed, n * sizeof(float), {cudaMemLocationTypeDevice, dev}, 0, s);
  cudaMemLocation where = {.type = cudaMemLocationTypeDevice, .id = dev};
  cudaMemAdvise(managed, n * sizeof(float), cudaMemAdviseSetReadMostly, where);
  cudaMemAdvise(managed, n * sizeof(float), cudaMemAdviseSetPreferredLocation,
                cudaMemLocation{cudaMemLocationTypeDevice, dev});
  cudaMemPrefetchAsync(managed, n * sizeof(float), {cudaMemLocationTypeHost, 0}, 0, s);
  cudaMemPrefetchAsync(managed, n * sizeof(float), dev, s);  // CUDA 12 form: only renamed

  float* pinned = nullptr;
  cudaHostAlloc(&pinned, n * sizeof(float), cudaHostAllocMapped);
  float* mapped = nullptr;
  cudaHostGetDevicePointer(&mapped, pinned, 0);  // typed pointer: HIP takes void**
  cudaFreeHost(pinned);
  return cudaFree(managed) == cudaSuccess ? 0 : 1;
}
