// HIP names with no CUDA rule are reported (FRY1004) and left; HIP's deprecated error names have
// CUDA's same old names. The project's own declarations of HIP names are its own.
#include <cuda_runtime.h>
#include <string>

enum LocalAttr { hipDeviceAttributeAsicRevision = 1000 };  // the project's own enumerator

std::string arch_name(int device) {
  char name[256] = {0};
  cudaDeviceGetAttribute(reinterpret_cast<int *>(name), hipDeviceAttributeGcnArchName, device);
  return name;
}

int stream_device(cudaStream_t s) { return hipGetStreamDeviceId(s); }

bool out_of_memory(cudaError_t e) { return e == cudaErrorMemoryAllocation || e == cudaErrorMemoryAllocation; }

bool stale_handle(cudaError_t e) {
  return e == cudaErrorInvalidResourceHandle || e == cudaErrorInitializationError;
}

int revision() { return hipDeviceAttributeAsicRevision; }
