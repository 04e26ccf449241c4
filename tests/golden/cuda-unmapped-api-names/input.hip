// HIP names with no CUDA rule are reported (FRY1004) and left; HIP's deprecated error names have
// CUDA's same old names. The project's own declarations of HIP names are its own.
#include <hip/hip_runtime.h>
#include <string>

enum LocalAttr { hipDeviceAttributeAsicRevision = 1000 };  // the project's own enumerator

std::string arch_name(int device) {
  char name[256] = {0};
  hipDeviceGetAttribute(reinterpret_cast<int *>(name), hipDeviceAttributeGcnArchName, device);
  return name;
}

int stream_device(hipStream_t s) { return hipGetStreamDeviceId(s); }

bool out_of_memory(hipError_t e) { return e == hipErrorMemoryAllocation || e == hipErrorOutOfMemory; }

bool stale_handle(hipError_t e) {
  return e == hipErrorInvalidResourceHandle || e == hipErrorInitializationError;
}

int revision() { return hipDeviceAttributeAsicRevision; }
