// No stream in scope and no main in this file: the default stream is made explicit with a
// warning, and aclInit/aclFinalize are left to the user.
#include <acl/acl.h>

void upload(float *d, const float *h, size_t bytes, int device) {
  aclrtSetDevice(device);
  aclrtMemcpyAsync(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, nullptr);
  aclrtSynchronizeDevice();
}
