// Streams with flags and priorities, events with flags, timing, cross-stream waits and async
// copies in both directions.
#include <acl/acl.h>

float pipeline(float *d_buf, float *h_in, float *h_out, size_t bytes) {
  int least = 0, greatest = 0;
  aclrtDeviceGetStreamPriorityRange(&least, &greatest);
  aclrtStream copy_in, compute;
  aclrtCreateStream(&copy_in);
  aclrtCreateStreamWithConfig(&compute, greatest, 0);

  aclrtEvent uploaded, start, stop;
  aclrtCreateEventWithFlag(&uploaded, ACL_EVENT_SYNC);
  aclrtCreateEventWithFlag(&start, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
  aclrtCreateEvent(&stop);

  aclrtRecordEvent(start, compute);
  aclrtMemcpyAsync(d_buf, bytes, h_in, bytes, ACL_MEMCPY_HOST_TO_DEVICE, copy_in);
  aclrtRecordEvent(uploaded, copy_in);
  aclrtStreamWaitEvent(compute, uploaded);
  aclrtMemcpyAsync(h_out, bytes, d_buf, bytes, ACL_MEMCPY_DEVICE_TO_HOST, compute);
  aclrtRecordEvent(stop, compute);
  aclrtSynchronizeEvent(stop);

  float ms = 0.0f;
  aclrtEventElapsedTime(&ms, start, stop);
  aclrtSynchronizeStream(copy_in);

  aclrtDestroyEvent(uploaded);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(stop);
  aclrtDestroyStream(copy_in);
  aclrtDestroyStream(compute);
  return ms;
}
