// MPI programs: a unit that includes <mpi.h> compiles only with the MPI library's include
// directory, which verify asks the MPI compiler wrapper for (`mpicxx --showme:compile`, Open
// MPI's), as a build would get it by compiling through the wrapper. See docs/verify.md "MPI".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/process.h"

namespace ferry::verify {

struct MpiFlags {
  std::string wrapper;             // the wrapper that answered
  std::vector<std::string> flags;  // its compile flags (-I, -D, -pthread)
  std::string problem;             // empty when usable, else why not
  [[nodiscard]] bool usable() const { return problem.empty(); }
};

// True when an #include line of `source` names mpi.h.
[[nodiscard]] bool includes_mpi(std::string_view source);

// The compile flags of the first wrapper that answers: $FERRY_MPICXX, mpicxx, mpic++, mpicc.
[[nodiscard]] MpiFlags find_mpi(const ProcessRunner& runner);

// The flags of one wrapper's `--showme:compile` output: -I, -D, -pthread words (others dropped:
// optimisation or warning flags are the build's, not the library's).
[[nodiscard]] std::vector<std::string> parse_mpi_compile_flags(std::string_view output);

}  // namespace ferry::verify
