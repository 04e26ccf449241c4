// Streams and events: explicit streams, event timing, error strings, device count.
#include <cstdio>
#include <acl/acl.h>

static void check(aclError e) {
  if (e != ACL_SUCCESS) printf("error: %s\n", [](const char *ferry_msg) { return ferry_msg != nullptr ? ferry_msg : "AscendCL error (no message recorded)"; }(aclGetRecentErrMsg()));
}

void copy_timed(float *dst, const float *src, size_t bytes) {
  aclrtStream stream;
  aclrtEvent start, stop;
  check(aclrtCreateStream(&stream));
  aclrtCreateEvent(&start);
  aclrtCreateEvent(&stop);
  aclrtRecordEvent(start, stream);
  aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
  aclrtMemsetAsync(dst, bytes, 0, bytes, stream);
  aclrtRecordEvent(stop, stream);
  aclrtStreamWaitEvent(stream, stop);
  aclrtSynchronizeEvent(stop);
  float ms = 0;
  aclrtEventElapsedTime(&ms, start, stop);
  printf("copy took %f ms\n", ms);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
}

int count_devices() {
  int n = 0;
  [](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&n);
  aclrtSynchronizeDevice();
  return n;
}
