// One process per rank: the unique id travels over MPI, then every collective with its root,
// point-to-point exchange in a group, rank queries and teardown.
#include <cstdio>
#include <mpi.h>
#include <hccl/hccl.h>
#include <acl/acl.h>

int exchange(const float *grads, float *sum, float *gathered, float *shard, float *params, size_t n) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  aclrtSetDevice(rank);

  HcclRootInfo id;
  if (rank == 0) HcclGetRootInfo(&id);
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  HcclComm comm;
  HcclCommInitRootInfo(nranks, &id, rank, &comm);

  int size = 0, me = 0;
  [](auto ferry_comm, auto *ferry_rankSize) { uint32_t ferry_rankSize_v = 0; const HcclResult ferry_err = HcclGetRankSize(ferry_comm, &ferry_rankSize_v); if (ferry_err == HCCL_SUCCESS) { *ferry_rankSize = ferry_rankSize_v; } return ferry_err; }(comm, &size);
  [](auto ferry_comm, auto *ferry_rank) { uint32_t ferry_rank_v = 0; const HcclResult ferry_err = HcclGetRankId(ferry_comm, &ferry_rank_v); if (ferry_err == HCCL_SUCCESS) { *ferry_rank = ferry_rank_v; } return ferry_err; }(comm, &me);

  aclrtStream stream;
  aclrtCreateStream(&stream);
  HcclAllReduce(const_cast<void *>(static_cast<const void *>(grads)), sum, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
  HcclBroadcast(params, n, HCCL_DATA_TYPE_FP32, 0, comm, stream);
  HcclBroadcast(params, n, HCCL_DATA_TYPE_FP32, 0, comm, stream);
  HcclAllGather(const_cast<void *>(static_cast<const void *>(grads)), gathered, n, HCCL_DATA_TYPE_FP32, comm, stream);
  HcclReduceScatter(gathered, shard, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, stream);
  HcclReduce(const_cast<void *>(static_cast<const void *>(grads)), sum, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MIN, 0, comm, stream);

  HcclGroupStart();
  HcclSend(shard, n, HCCL_DATA_TYPE_FP32, (me + 1) % size, comm, stream);
  HcclRecv(shard, n, HCCL_DATA_TYPE_FP32, (me + size - 1) % size, comm, stream);
  HcclGroupEnd();
  aclrtSynchronizeStream(stream);

  HcclCommDestroy(comm);
  aclrtDestroyStream(stream);
  return me;
}

int local_comms(int ndev, HcclComm *comms) {
  int devs[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  return HcclCommInitAll(ndev, devs, comms) == HCCL_SUCCESS ? 0 : 1;
}
