// Pinned host memory, memset variants and pitched copies.
#include <acl/acl.h>

void stage(size_t n, size_t width, size_t height, aclrtStream stream) {
  float *pinned = nullptr, *mapped = nullptr, *d = nullptr, *d2 = nullptr;
  unsigned char *bytes = nullptr;
  aclrtMallocHost((void **)&pinned, n * sizeof(float));
  aclrtMallocHost((void **)&bytes, n);
  aclrtMallocHost((void **)&mapped, n * sizeof(float));
  aclrtMallocHost((void **)&mapped, n * sizeof(float));
  aclrtMalloc((void **)&d, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc((void **)&d2, width * height, ACL_MEM_MALLOC_HUGE_FIRST);

  aclrtMemset(d, n * sizeof(float), 0, n * sizeof(float));
  aclrtMemsetAsync(d, n * sizeof(float), 0xff, n * sizeof(float), stream);
  aclrtMemsetAsync(d, 64, 1, 64, stream);
  aclrtMemcpyAsync(d, n * sizeof(float), pinned, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE, stream);
  aclrtMemcpy2d(d2, width, bytes, width, width, height, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy2dAsync(bytes, width, d2, width, width, height, ACL_MEMCPY_DEVICE_TO_HOST, stream);
  aclrtSynchronizeStream(stream);

  aclrtFree(d2);
  aclrtFree(d);
  aclrtFreeHost(mapped);
  aclrtFreeHost(bytes);
  aclrtFreeHost(pinned);
}
