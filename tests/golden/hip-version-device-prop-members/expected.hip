// cudaDeviceProp members that hipDeviceProp_t has only from ROCm 6.0 (cuda-samples simpleIPC,
// simpleMultiCopy, deviceQuery; code-samples gups): for HIP 5.2 a read goes through the device
// attribute HIP already has (compat header device_prop.h), cast to CUDA's type where that is not
// int; a member without an attribute, or one written, stays with FRY1301.
#include <cstdio>
#include <hip/hip_runtime.h>
#include "ferry/compat/device_prop.h"

static void report(const hipDeviceProp_t *p) {
  printf("optin %zu bytes, regs %d\n", static_cast<size_t>(ferry_device_attribute(*p, hipDeviceAttributeSharedMemPerBlockOptin)), ferry_device_attribute(*p, hipDeviceAttributeMaxRegistersPerMultiprocessor));
}

int main() {
  int count = 0;
  hipGetDeviceCount(&count);
  hipDeviceProp_t props[8], deviceProp;
  for (int d = 0; d < count && d < 8; ++d) hipGetDeviceProperties(&props[d], d);
  hipGetDeviceProperties(&deviceProp, 0);
  if (!ferry_device_attribute(props[0], hipDeviceAttributeUnifiedAddressing)) printf("device 0 does not support unified addressing\n");
  printf("copy engines: %d, major %d\n", ferry_device_attribute(deviceProp, hipDeviceAttributeAsyncEngineCount), deviceProp.major);
  const size_t words = static_cast<size_t>(ferry_device_attribute(deviceProp, hipDeviceAttributeSharedMemPerBlockOptin)) / sizeof(int);
  report(&deviceProp);
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY1301): HIP 5.2 has no such member
  printf("1D layered: %d x %d\n", deviceProp.maxTexture1DLayered[0], deviceProp.maxTexture1DLayered[1]);
  deviceProp.asyncEngineCount = 2;
#endif
  return words > 0 ? 0 : 1;
}
