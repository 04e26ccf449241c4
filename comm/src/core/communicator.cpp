#include <cstdlib>
#include <string>

#include "ferry/comm/communicator.hpp"
#include "ferry/comm/tuning.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm {

static std::chrono::duration<double> timeout_from_env() {
  if (const char* s = std::getenv("FERRY_COMM_TIMEOUT_S")) {
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (end != s && v > 0) return std::chrono::duration<double>(v);
  }
  return std::chrono::duration<double>(120.0);
}

Communicator::Communicator(MPI_Comm comm, CommOptions options) {
  if (comm == MPI_COMM_NULL) throw UsageError("ferry-comm: Communicator built from MPI_COMM_NULL");
  MPI_Comm own;
  if (MPI_Comm_dup(comm, &own) != MPI_SUCCESS) throw UsageError("ferry-comm: MPI_Comm_dup failed");
  init(own, options);
}

Communicator::Communicator(MPI_Comm comm, Adopt, CommOptions options) {
  if (comm == MPI_COMM_NULL) throw UsageError("ferry-comm: Communicator built from MPI_COMM_NULL");
  init(comm, options);
}

void Communicator::init(MPI_Comm own, const CommOptions& options) {
  comm_ = own;
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  timeout_ = options.timeout.count() > 0 ? options.timeout : timeout_from_env();
  check_args_ = options.check_args;
  std::string rules(default_tuning);
  if (const char* env = std::getenv("FERRY_COMM_TUNE")) rules += std::string("#") + env;
  if (!options.tuning.empty()) rules += "#" + options.tuning;
  tuning_ = std::make_unique<Tuning>(rules);
}

Communicator::~Communicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

Communicator::Communicator(Communicator&& o) noexcept
    : comm_(o.comm_),
      rank_(o.rank_),
      size_(o.size_),
      timeout_(o.timeout_),
      check_args_(o.check_args_),
      tuning_(std::move(o.tuning_)) {
  o.comm_ = MPI_COMM_NULL;
}

Communicator& Communicator::operator=(Communicator&& o) noexcept {
  if (this != &o) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
    comm_ = o.comm_;
    o.comm_ = MPI_COMM_NULL;
    rank_ = o.rank_;
    size_ = o.size_;
    timeout_ = o.timeout_;
    check_args_ = o.check_args_;
    tuning_ = std::move(o.tuning_);
  }
  return *this;
}

}  // namespace ferry::comm
