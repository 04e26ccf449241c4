// NCCL -> HCCL: communicator setup, collectives, point-to-point, in-place broadcast.
#include <acl/acl.h>
#include <hccl/hccl.h>

void allreduce_step(float *send, float *recv, size_t count, int rank, int nranks, HcclRootInfo id,
                    aclrtStream stream) {
  HcclComm comm;
  HcclCommInitRootInfo(nranks, &id, rank, &comm);
  HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
  HcclAllGather(send, recv, count / nranks, HCCL_DATA_TYPE_FP32, comm, stream);
  HcclReduceScatter(send, recv, count / nranks, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, stream);
  HcclBroadcast(recv, count, HCCL_DATA_TYPE_FP32, 0, comm, stream);
  ncclBroadcast(send, recv, count, HCCL_DATA_TYPE_FP32, 0, comm, stream);
  HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, ncclAvg, comm, stream);
  HcclGroupStart();
  HcclSend(send, count, HCCL_DATA_TYPE_FP32, (rank + 1) % nranks, comm, stream);
  HcclRecv(recv, count, HCCL_DATA_TYPE_FP32, (rank + nranks - 1) % nranks, comm, stream);
  HcclGroupEnd();
  HcclCommDestroy(comm);
}

void make_id(HcclRootInfo *id) { HcclGetRootInfo(id); }
