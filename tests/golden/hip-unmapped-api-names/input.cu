// CUDA names newer than the rule tables: each use is reported (FRY1004) and left, never passed on
// in silence. The project's own declarations of such names are its own and are not reported.
#include <cuda.h>
#include <cuda_runtime.h>

// A project that declares a CUDA name itself (as a header standing in for cuda.h does).
typedef enum local_attr_enum { CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 132 } local_attr;
#define CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID 134

bool fabric_capable(CUdevice dev) {
  int fabric = 0, multicast = 0, pci = 0;
  cuDeviceGetAttribute(&fabric, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, dev);
  cuDeviceGetAttribute(&multicast, (CUdevice_attribute)CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, dev);
  cuDeviceGetAttribute(&pci, (CUdevice_attribute)CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, dev);
  return fabric && multicast && pci;
}

int numa_pools(int device) {
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrHostNumaMemoryPoolsSupported, device);
  return v;
}

struct Settings {
  int cudaLogLevel;  // a member named like a CUDA type: the user's
};
int level(const Settings &s) { return s.cudaLogLevel; }
