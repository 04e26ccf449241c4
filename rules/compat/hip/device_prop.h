// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/device_prop.h.
// Members of cudaDeviceProp that hipDeviceProp_t has from ROCm 6.0 on (asyncEngineCount,
// unifiedAddressing, sharedMemPerBlockOptin, ...): for an older HIP the migration reads
// `prop.asyncEngineCount` as `ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount)`,
// the attribute of the device `prop` describes. That device is the one whose PCI domain, bus and
// device ids are prop's (what hipGetDeviceProperties filled in), else the current device.
// A release whose hipDeviceGetAttribute refuses the attribute gives 0, and the first refusal is
// reported on stderr (a value CUDA code would read as "not supported").
#pragma once
#include <hip/hip_runtime.h>

#include <cstdio>

namespace ferry_compat_device_prop {

inline int device_of(const hipDeviceProp_t& p) {
  int count = 0;
  if (hipGetDeviceCount(&count) == hipSuccess)
    for (int d = 0; d < count; ++d) {
      int domain = -1, bus = -1, dev = -1;
      if (hipDeviceGetAttribute(&domain, hipDeviceAttributePciDomainID, d) == hipSuccess &&
          hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, d) == hipSuccess &&
          hipDeviceGetAttribute(&dev, hipDeviceAttributePciDeviceId, d) == hipSuccess && domain == p.pciDomainID &&
          bus == p.pciBusID && dev == p.pciDeviceID)
        return d;
    }
  int current = 0;
  (void)hipGetDevice(&current);
  return current;
}

}  // namespace ferry_compat_device_prop

inline int ferry_device_attribute(const hipDeviceProp_t& p, hipDeviceAttribute_t attribute) {
  int value = 0;
  if (hipDeviceGetAttribute(&value, attribute, ferry_compat_device_prop::device_of(p)) != hipSuccess) {
    static bool reported = false;
    if (!reported)
      std::fprintf(stderr,
                   "ferry/compat/device_prop.h: this HIP release does not answer device attribute %d; "
                   "read as 0\n",
                   static_cast<int>(attribute));
    reported = true;
    value = 0;
  }
  return value;
}
