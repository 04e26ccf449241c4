// Device queries: counts and ids of several integer types, attributes with and without an
// AscendCL query, memory info, peer access.
#include <cstdio>
#include <acl/acl.h>

struct Topology {
  int devices;
  size_t free_bytes;
};

void describe(Topology *topo) {
  int n = 0;
  [](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&n);
  unsigned int un = 0;
  aclrtGetDeviceCount(&un);
  [](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&topo->devices);

  int dev = 0;
  aclrtGetDevice(&dev);
  long ldev = 0;
  [](auto *ferry_deviceId) { int32_t ferry_deviceId_v = 0; const aclError ferry_err = aclrtGetDevice(&ferry_deviceId_v); if (ferry_err == ACL_SUCCESS) { *ferry_deviceId = ferry_deviceId_v; } return ferry_err; }(&ldev);

  int cores = 0, warp = 0, l2 = 0;
  [](auto *ferry_value, auto ferry_attr, auto ferry_deviceId) { int64_t ferry_value_v = 0; const aclError ferry_err = aclrtGetDeviceInfo(ferry_deviceId, ferry_attr, &ferry_value_v); if (ferry_err == ACL_SUCCESS) { *ferry_value = ferry_value_v; } return ferry_err; }(&cores, ACL_DEV_ATTR_AICORE_CORE_NUM, dev);
  [](auto *ferry_value, auto ferry_attr, auto ferry_deviceId) { int64_t ferry_value_v = 0; const aclError ferry_err = aclrtGetDeviceInfo(ferry_deviceId, ferry_attr, &ferry_value_v); if (ferry_err == ACL_SUCCESS) { *ferry_value = ferry_value_v; } return ferry_err; }(&warp, ACL_DEV_ATTR_WARP_SIZE, dev);
  [](auto *ferry_value, auto ferry_attr, auto ferry_deviceId) { int64_t ferry_value_v = 0; const aclError ferry_err = aclrtGetDeviceInfo(ferry_deviceId, ferry_attr, &ferry_value_v); if (ferry_err == ACL_SUCCESS) { *ferry_value = ferry_value_v; } return ferry_err; }(&l2, ACL_DEV_ATTR_L2_CACHE_SIZE, dev);
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);

  size_t free_b = 0, total_b = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b);
  unsigned long long total_ull = 0;
  [](auto *ferry_free, auto *ferry_total) { size_t ferry_free_v = 0; const aclError ferry_err = aclrtGetMemInfo(ACL_HBM_MEM, &ferry_free_v, reinterpret_cast<size_t *>(ferry_total)); if (ferry_err == ACL_SUCCESS) { *ferry_free = ferry_free_v; } return ferry_err; }(&topo->free_bytes, &total_ull);

  int can = 0;
  aclrtDeviceCanAccessPeer(&can, 0, 1);
  if (can) aclrtDeviceEnablePeerAccess(1, 0);
  printf("%d %u %ld %d %d %d %zu %zu %llu\n", n, un, ldev, cores, warp, l2, free_b, total_b, total_ull);
}
