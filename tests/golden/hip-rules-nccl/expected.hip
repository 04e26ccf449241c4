// NCCL: an in-place sum all-reduce of gradients inside a group.
#include <hip/hip_runtime.h>
#include <rccl/rccl.h>

ncclResult_t allreduce_grads(float* grads, size_t count, ncclComm_t comm, hipStream_t stream) {
  ncclGroupStart();
  ncclResult_t r = ncclAllReduce(grads, grads, count, ncclFloat, ncclSum, comm, stream);
  ncclGroupEnd();
  if (r != ncclSuccess) return r;
  int rank = 0, nranks = 0;
  ncclCommUserRank(comm, &rank);
  ncclCommCount(comm, &nranks);
  return ncclSuccess;
}
