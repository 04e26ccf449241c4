// The HIP → CUDA rule table, derived from the forward CUDA → HIP tables.
//
// Every forward row with a replacement and status supported or changed becomes a reverse row
// (HIP name → CUDA name, same kind, family and status). Forward call templates of the form
// `hipName($0, HIP_SYMBOL($1), $2...)` give a plain rename of their head (HIP_SYMBOL is undone by
// its own rule). Explicit rows in rules/hip2cuda/*.tsv (what only exists on the HIP side, and
// rules/hip2cuda/overrides.tsv for many-to-one names) replace derived rows of the same name.
//
// A HIP name reached from several CUDA names is decided, in this order, by: an explicit row; the
// candidate spelled like the HIP name itself (the name exists in CUDA too); the one candidate
// that is not a `_v2`/`_v2_64` alias of another; the one runtime-API candidate among driver-API
// ones (HIP's runtime types are the CUDA runtime's); the one supported candidate. Anything else is
// *unresolved*: the first supported candidate in table order is used, and the unit test
// (tests/unit/cuda_target_test.cpp) fails so that someone adds an override.
#pragma once

#include <string>
#include <vector>

#include "rules/cuda_version.h"
#include "rules/rule_set.h"

namespace ferry::targets::cuda {

struct ReverseCandidate {
  std::string cuda;    // forward `from`
  std::string origin;  // forward row, "rules/cuda2hip/x.tsv:N"
  rules::Status status;
};

struct ManyToOne {
  rules::RuleKind kind;
  std::string hip;
  std::vector<ReverseCandidate> candidates;
  std::string chosen;
  std::string how;  // "explicit", "identity", "v2-alias", "runtime-over-driver", "only-supported", "unresolved"
};

struct ReverseStats {
  std::size_t derived = 0;                   // reverse rows that came from forward rows
  std::size_t explicit_rows = 0;             // rows of rules/hip2cuda/*.tsv
  std::size_t skipped_calls = 0;             // forward call templates that could not be inverted
  std::size_t skipped_standard_headers = 0;  // forward rows to C++ standard headers (cstdint): kept as they are
  std::vector<ManyToOne> many_to_one;
};

// Builds the reverse table for CUDA `version` into `out` (empty). An explicit row whose note bounds
// the CUDA version ("from CUDA 13.0", "before CUDA 12.0") is used only for the versions it names;
// for the others the derived row stays. Throws rules::RuleError on malformed tables.
void build_reverse_rules(rules::RuleSet& out, ReverseStats* stats = nullptr,
                         const rules::CudaVersion& version = rules::CudaVersion{});

}  // namespace ferry::targets::cuda
