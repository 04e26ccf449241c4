// CUDA names newer than the rule tables: each use is reported (FRY1004) and left, never passed on
// in silence. The project's own declarations of such names are its own and are not reported.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
/* ferry-cuda: #include <cuda_runtime.h> */

// A project that declares a CUDA name itself (as a header standing in for cuda.h does).
typedef enum local_attr_enum { CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 132 } local_attr;
#define CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID 134

bool fabric_capable(hipDevice_t dev) {
  int fabric = 0, multicast = 0, pci = 0;
  hipDeviceGetAttribute /* ferry-cuda: cuDeviceGetAttribute */(&fabric, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, dev);
  hipDeviceGetAttribute /* ferry-cuda: cuDeviceGetAttribute */(&multicast, (hipDeviceAttribute_t /* ferry-cuda: CUdevice_attribute */)CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, dev);
  hipDeviceGetAttribute /* ferry-cuda: cuDeviceGetAttribute */(&pci, (hipDeviceAttribute_t /* ferry-cuda: CUdevice_attribute */)CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, dev);
  return fabric && multicast && pci;
}

int numa_pools(int device) {
  int v = 0;
  hipDeviceGetAttribute(&v, cudaDevAttrHostNumaMemoryPoolsSupported, device);
  return v;
}

struct Settings {
  int cudaLogLevel;  // a member named like a CUDA type: the user's
};
int level(const Settings &s) { return s.cudaLogLevel; }
