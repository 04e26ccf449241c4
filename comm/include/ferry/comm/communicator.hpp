// Communicator: an MPI communicator that ferry-comm collectives run on.
// It duplicates the MPI communicator it is given (so our traffic never matches the caller's),
// switches the duplicate to MPI_ERRORS_RETURN, and carries the per-communicator options:
// the deadline after which a silent peer is declared dead, whether arguments are checked
// across ranks before every collective, and the tuning string that picks algorithms.
#pragma once

#include <mpi.h>

#include <chrono>
#include <memory>
#include <string>

namespace ferry::comm {

class Tuning;

struct CommOptions {
  // How long a collective waits without completing before it throws CommError(timeout).
  // Default 120 s, or FERRY_COMM_TIMEOUT_S from the environment when set.
  std::chrono::duration<double> timeout{-1.0};
  // Exchange a small header (collective, count, dtype, op, root, codec) before each collective
  // so that mismatched calls fail on every rank instead of hanging or corrupting memory.
  bool check_args = true;
  // Extra tuning rules appended to the defaults and to FERRY_COMM_TUNE (see tuning.hpp).
  std::string tuning;
};

class Communicator {
 public:
  explicit Communicator(MPI_Comm comm, CommOptions options = {});
  // Takes ownership of a communicator nobody else uses (fresh from MPI_Comm_split/create): no dup.
  struct Adopt {};
  Communicator(MPI_Comm comm, Adopt, CommOptions options = {});
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm mpi() const { return comm_; }
  std::chrono::duration<double> timeout() const { return timeout_; }
  void set_timeout(std::chrono::duration<double> t) { timeout_ = t; }
  bool check_args() const { return check_args_; }
  const Tuning& tuning() const { return *tuning_; }

 private:
  void init(MPI_Comm own, const CommOptions& options);
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::chrono::duration<double> timeout_{120.0};
  bool check_args_ = true;
  std::unique_ptr<Tuning> tuning_;
};

}  // namespace ferry::comm
