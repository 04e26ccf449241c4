// Calls whose arguments differ between CUDA and HIP: CUDA 13's cudaMemLocation arguments become
// HIP's device id (FRY4104; hip-call-args-unreadable has FRY4105), a typed pointer to
// cudaHostAlloc needs hipHostMalloc's template overload (cudaHostGetDevicePointer a cast), and
// __ffs/__ffsll of a 64-bit or long argument would be ambiguous between HIP's two overloads.
#include <hip/hip_runtime.h>
#include <cstdint>

__global__ void first_set(const uint64_t* masks, const long* words, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ffsll(((unsigned long long)(masks[i])) /* ferry-cuda: masks[i] */) + __ffs(((unsigned int)(words[i])) /* ferry-cuda: words[i] */);
}

int run(int dev, hipStream_t s, size_t n) {
  float* managed = nullptr;
  hipMallocManaged(&managed, n * sizeof(float));
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(managed, n * sizeof(float), (dev) /* ferry-cuda: {cudaMemLocationTypeDevice, dev}, 0 */, s);
  hipMemLocation where = {.type = hipMemLocationTypeDevice, .id = dev};
  hipMemAdvise /* ferry-cuda: cudaMemAdvise */(managed, n * sizeof(float), hipMemAdviseSetReadMostly, ((where.type == hipMemLocationTypeDevice ? where.id : hipCpuDeviceId)) /* ferry-cuda: where */);
  hipMemAdvise /* ferry-cuda: cudaMemAdvise */(managed, n * sizeof(float), hipMemAdviseSetPreferredLocation,
                (dev) /* ferry-cuda: cudaMemLocation{cudaMemLocationTypeDevice, dev} */);
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(managed, n * sizeof(float), (hipCpuDeviceId) /* ferry-cuda: {cudaMemLocationTypeHost, 0}, 0 */, s);
  hipMemPrefetchAsync /* ferry-cuda: cudaMemPrefetchAsync */(managed, n * sizeof(float), dev, s);  // CUDA 12 form: only renamed

  float* pinned = nullptr;
  hipHostMalloc /* ferry-cuda: cudaHostAlloc */(&pinned, n * sizeof(float), hipHostMallocMapped);
  float* mapped = nullptr;
  hipHostGetDevicePointer((reinterpret_cast<void**>(&mapped)) /* ferry-cuda: &mapped */, pinned, 0);  // typed pointer: HIP takes void**
  hipHostFree(pinned);
  return hipFree(managed) == hipSuccess ? 0 : 1;
}
