// Fault tests, one scenario per run (argv[1]):
//   frozen         rank 1 stops (SIGSTOP) mid-run, like a node that hangs without closing its
//                  sockets; the others must throw CommError(timeout) naming it, within the
//                  configured timeout (+ slack). Payload phase: check_args is off.
//   frozen-header  the same, with the default cross-rank header check (fails in the header).
//   killed         rank 1 dies (SIGKILL); the job must end, not hang: survivors either raise a
//                  clear error or are taken down by mpirun, whichever comes first.
// Survivors confirm to each other over a communicator made with MPI_Comm_create_group (which
// involves group members only), rank 0 prints the verdict, and then the job is aborted because
// the frozen rank can never reach MPI_Finalize.
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ferry/comm/comm.hpp"
#include "survivor_verdict.hpp"

namespace fc = ferry::comm;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string mode = argc > 1 ? argv[1] : "frozen";
  const double timeout_s = 2.0;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fc::Communicator comm(MPI_COMM_WORLD,
                        {.timeout = std::chrono::duration<double>(timeout_s), .check_args = mode != "frozen"});
  std::vector<float> x(1 << 16, 1.0f), y(x.size());
  fc::allreduce(comm, x.data(), y.data(), x.size(), fc::DType::f32, fc::ReduceOp::sum);  // healthy first
  if (rank == 1) {
    if (mode == "killed") raise(SIGKILL);
    raise(SIGSTOP);
  }
  auto t0 = std::chrono::steady_clock::now();
  int ok = 0;
  std::string message = "no error";
  try {
    fc::allreduce(comm, x.data(), y.data(), x.size(), fc::DType::f32, fc::ReduceOp::sum, {.algorithm = "ring"});
  } catch (const fc::CommError& e) {
    message = e.what();
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool names_peer =
        mode != "frozen" || message.find("rank(s) 1") != std::string::npos || message.find(", 1") != std::string::npos;
    ok = e.kind() == fc::CommError::Kind::timeout && waited < timeout_s * 3 + 2 && names_peer;
    std::printf("rank %d: CommError after %.2f s: %s\n", rank, waited, e.what());
  } catch (const std::exception& e) {
    message = e.what();
    std::printf("rank %d: unexpected %s\n", rank, e.what());
  }
  std::fflush(stdout);
  // Survivors agree on a verdict without the dead rank.
  char pass[128];
  std::snprintf(pass, sizeof pass, "FAULT-TEST-PASS: all %d survivors raised a timeout naming the dead rank", size - 1);
  ferry::comm::testing::survivors_verdict(ok, 1, rank, pass,
                                          "FAULT-TEST-FAIL: not every survivor raised the expected error");
}
