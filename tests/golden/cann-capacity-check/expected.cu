// Code that already uses AscendCL (e.g. a migrated file edited by hand): a capacity smaller than
// the count, or one that cannot be proven large enough, is flagged.
#include <acl/acl.h>

void copy_back(float *h, const float *d, size_t n, aclrtStream stream) {
  aclrtMemcpy(h, n * sizeof(float), d, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(h, 1024, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(h, 64 * sizeof(float), d, 16 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpyAsync(h, n, d, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST, stream);
  aclrtMemset(h, 256, 0, 512);
}
