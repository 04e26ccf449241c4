// Error handling: checking macros, error strings, sticky errors, errors in conditions.
#include <cstdio>
#include <cstdlib>
#include <hccl/hccl.h>
#include <acl/acl.h>

#define CUDA_CHECK(call)                                                                \
  do {                                                                                  \
    aclError err_ = (call);                                                          \
    if (err_ != ACL_SUCCESS) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, [](const char *ferry_msg) { return ferry_msg != nullptr ? ferry_msg : "AscendCL error (no message recorded)"; }(aclGetRecentErrMsg()));    \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

#define NCCL_CHECK(call)                                                                \
  do {                                                                                  \
    HcclResult r_ = (call);                                                           \
    if (r_ != HCCL_SUCCESS) {                                                            \
      fprintf(stderr, "nccl: %s\n", HcclGetErrorString(r_));                            \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

aclError alloc(float **p, size_t n) {
  aclError e = aclrtMalloc((void **)p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  if (e != ACL_SUCCESS) return e;
  return aclrtMemset(*p, n * sizeof(float), 0, n * sizeof(float));
}

int checked(HcclComm comm, float *buf, size_t n, aclrtStream stream) {
  int count = 0;
  CUDA_CHECK([](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&count));
  if ([](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = ferry_count_v; } return ferry_err; }(&count) != ACL_SUCCESS || count == 0) return 1;
  CUDA_CHECK(aclrtSynchronizeStream(stream));
  NCCL_CHECK(HcclAllReduce(buf, buf, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  aclError sticky = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  if (sticky != ACL_SUCCESS) fprintf(stderr, "%s\n", [](const char *ferry_msg) { return ferry_msg != nullptr ? ferry_msg : "AscendCL error (no message recorded)"; }(aclGetRecentErrMsg()));
  if (aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL) != ACL_SUCCESS) return 2;
  return 0;
}
