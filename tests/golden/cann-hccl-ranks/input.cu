// One process per rank: the unique id travels over MPI, then every collective with its root,
// point-to-point exchange in a group, rank queries and teardown.
#include <cstdio>
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>

int exchange(const float *grads, float *sum, float *gathered, float *shard, float *params, size_t n) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  cudaSetDevice(rank);

  ncclUniqueId id;
  if (rank == 0) ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm;
  ncclCommInitRank(&comm, nranks, id, rank);

  int size = 0, me = 0;
  ncclCommCount(comm, &size);
  ncclCommUserRank(comm, &me);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  ncclAllReduce(grads, sum, n, ncclFloat, ncclSum, comm, stream);
  ncclBroadcast(params, params, n, ncclFloat, 0, comm, stream);
  ncclBcast(params, n, ncclFloat, 0, comm, stream);
  ncclAllGather(grads, gathered, n, ncclFloat, comm, stream);
  ncclReduceScatter(gathered, shard, n, ncclFloat, ncclMax, comm, stream);
  ncclReduce(grads, sum, n, ncclFloat, ncclMin, 0, comm, stream);

  ncclGroupStart();
  ncclSend(shard, n, ncclFloat, (me + 1) % size, comm, stream);
  ncclRecv(shard, n, ncclFloat, (me + size - 1) % size, comm, stream);
  ncclGroupEnd();
  cudaStreamSynchronize(stream);

  ncclCommDestroy(comm);
  cudaStreamDestroy(stream);
  return me;
}

int local_comms(int ndev, ncclComm_t *comms) {
  int devs[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  return ncclCommInitAll(comms, ndev, devs) == ncclSuccess ? 0 : 1;
}
