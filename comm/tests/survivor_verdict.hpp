// Fault tests: the ranks that survive a dead rank agree on a verdict without it (over a
// communicator made with MPI_Comm_create_group, which involves group members only); rank 0 prints
// `pass` or `fail`, then the job is aborted, because the dead rank can never reach MPI_Finalize.
// Used by comm/tests/fault_test.cpp and comm/cuda/tests/device_allreduce_test.cpp.
#pragma once
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace ferry::comm::testing {

[[noreturn]] inline void survivors_verdict(int ok, int dead, int rank, const char* pass, const char* fail) {
  MPI_Group world, survivors;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_excl(world, 1, &dead, &survivors);
  MPI_Comm alive;
  MPI_Comm_create_group(MPI_COMM_WORLD, survivors, 7, &alive);
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, alive);
  if (rank == 0) {
    std::printf("%s\n", all_ok ? pass : fail);
    std::fflush(stdout);
  }
  MPI_Barrier(alive);
  MPI_Abort(MPI_COMM_WORLD, all_ok ? 0 : 1);
  std::abort();  // MPI_Abort does not return
}

}  // namespace ferry::comm::testing
