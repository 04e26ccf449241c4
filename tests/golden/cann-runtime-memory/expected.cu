// Device memory: allocation policy, capacity arguments, host memory, memory info.
#include <cstdio>
#include <acl/acl.h>

int main() {
  aclInit(nullptr);
  const size_t n = 1 << 20;
  float *d_x = nullptr, *h_x = nullptr;
  aclrtSetDevice(0);
  aclrtMalloc((void **)&d_x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMallocHost((void **)&h_x, n * sizeof(float));
  aclrtMemset(d_x, n * sizeof(float), 0, n * sizeof(float));
  aclrtMemcpy(d_x, n * sizeof(float), h_x, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(h_x, n * sizeof(float), d_x, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  size_t free_b = 0, total_b = 0;
  aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b);
  printf("%zu of %zu bytes free\n", free_b, total_b);
  aclrtFreeHost(h_x);
  aclrtFree(d_x);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
