// A complete host program of the shape users bring first: device count, allocation, copies and
// memset, streams, timed events, an NCCL all-reduce over the local devices, error strings.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hccl/hccl.h>
#include <acl/acl.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    aclError status = (call);                                               \
    if (status != ACL_SUCCESS) {                                               \
      fprintf(stderr, "CUDA error %d: %s\n", status, [](const char *ferry_msg) { return ferry_msg != nullptr ? ferry_msg : "AscendCL error (no message recorded)"; }(aclGetRecentErrMsg())); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  aclInit(nullptr);
  int ndev = 0;
  CHECK([](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&ndev));
  if (ndev == 0) {
    fprintf(stderr, "no device\n");
    aclFinalize();
    return 1;
  }
  printf("%d device(s)\n", ndev);

  const size_t n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  std::vector<float> host(n, 1.0f), back(n, 0.0f);

  std::vector<float *> dbuf(ndev, nullptr);
  std::vector<aclrtStream> streams(ndev);
  for (int d = 0; d < ndev; ++d) {
    CHECK(aclrtSetDevice(d));
    CHECK(aclrtMalloc((void **)&dbuf[d], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(dbuf[d], bytes, 0, bytes));
    CHECK(aclrtCreateStream(&streams[d]));
    CHECK(aclrtMemcpyAsync(dbuf[d], bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, streams[d]));
  }

  std::vector<HcclComm> comms(ndev);
  std::vector<int> devs(ndev);
  for (int d = 0; d < ndev; ++d) devs[d] = d;
  HcclResult nr = HcclCommInitAll(ndev, const_cast<int32_t *>(devs.data()), comms.data());
  if (nr != HCCL_SUCCESS) {
    fprintf(stderr, "NCCL error: %s\n", HcclGetErrorString(nr));
    aclFinalize();
    return 1;
  }

  CHECK(aclrtSetDevice(0));
  aclrtEvent start, stop;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&stop));
  CHECK(aclrtRecordEvent(start, streams[0]));
  HcclGroupStart();
  for (int d = 0; d < ndev; ++d)
    HcclAllReduce(const_cast<void *>(static_cast<const void *>(dbuf[d])), dbuf[d], n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[d], streams[d]);
  HcclGroupEnd();
  CHECK(aclrtRecordEvent(stop, streams[0]));
  CHECK(aclrtSynchronizeEvent(stop));
  float ms = 0.0f;
  CHECK(aclrtEventElapsedTime(&ms, start, stop));

  CHECK(aclrtMemcpy(back.data(), bytes, dbuf[0], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  printf("all-reduce of %zu floats over %d device(s): %.3f ms, back[0] = %.1f\n", n, ndev, ms, back[0]);

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(stop));
  for (int d = 0; d < ndev; ++d) {
    CHECK(aclrtSetDevice(d));
    CHECK(aclrtDestroyStream(streams[d]));
    CHECK(aclrtFree(dbuf[d]));
    HcclCommDestroy(comms[d]);
  }
  aclFinalize();
  return back[0] == static_cast<float>(ndev) ? 0 : 1;
}
