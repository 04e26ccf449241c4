// NCCL -> HCCL: communicator setup, collectives, point-to-point, in-place broadcast.
#include <cuda_runtime.h>
#include <nccl.h>

void allreduce_step(float *send, float *recv, size_t count, int rank, int nranks, ncclUniqueId id,
                    cudaStream_t stream) {
  ncclComm_t comm;
  ncclCommInitRank(&comm, nranks, id, rank);
  ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream);
  ncclAllGather(send, recv, count / nranks, ncclFloat, comm, stream);
  ncclReduceScatter(send, recv, count / nranks, ncclFloat, ncclMax, comm, stream);
  ncclBroadcast(recv, recv, count, ncclFloat, 0, comm, stream);
  ncclBroadcast(send, recv, count, ncclFloat, 0, comm, stream);
  ncclAllReduce(send, recv, count, ncclFloat, ncclAvg, comm, stream);
  ncclGroupStart();
  ncclSend(send, count, ncclFloat, (rank + 1) % nranks, comm, stream);
  ncclRecv(recv, count, ncclFloat, (rank + nranks - 1) % nranks, comm, stream);
  ncclGroupEnd();
  ncclCommDestroy(comm);
}

void make_id(ncclUniqueId *id) { ncclGetUniqueId(id); }
