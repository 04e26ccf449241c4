// NCCL: an in-place sum all-reduce of gradients inside a group.
#include <cuda_runtime.h>
#include <nccl.h>

ncclResult_t allreduce_grads(float* grads, size_t count, ncclComm_t comm, cudaStream_t stream) {
  ncclGroupStart();
  ncclResult_t r = ncclAllReduce(grads, grads, count, ncclFloat, ncclSum, comm, stream);
  ncclGroupEnd();
  if (r != ncclSuccess) return r;
  int rank = 0, nranks = 0;
  ncclCommUserRank(comm, &rank);
  ncclCommCount(comm, &nranks);
  return ncclSuccess;
}
