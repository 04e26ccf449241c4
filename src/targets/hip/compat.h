// Ferry's compat headers: our own code for CUDA names a target HIP release lacks (SIMD-in-word
// intrinsics, bfloat16 before HIP 6.0, hipsparseGetErrorString before ROCm 6.0,
// cooperative_groups::reduce, __hmax2 on __half2, cuda_fp8.h's C API, ...), written into the
// output tree as ferry/compat/<header>.h.
//
// Data: rules/compat/hip/<header>.h and rules/compat/hip/compat.tsv (which names and CUDA headers
// each one provides), embedded at build time. A rule whose replacement the release lacks gets
// Availability::Compat when a header provides it, else Availability::Missing (left unconverted,
// FRY1301). Files that use a Compat name include the header by a path relative to themselves.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/file_migration.h"
#include "rules/rule_set.h"
#include "targets/hip/toolchain.h"

namespace ferry::targets::hip {

struct CompatTable {
  std::map<std::string, std::string, std::less<>> by_name;    // HIP name -> header
  std::map<std::string, std::string, std::less<>> by_header;  // CUDA header path -> header
  std::map<std::string, std::string_view, std::less<>> text;  // header -> its content
};

// The embedded table; throws std::runtime_error when a row names a header that is not embedded.
[[nodiscard]] const CompatTable& compat_table();

// Sets every rule's availability for `tc` (libraries chosen by --blas / --sparse).
void apply_toolchain(rules::RuleSet& set, const Toolchain& tc, std::string_view blas, std::string_view sparse);

// The compat names the project defines itself as functions (ProjectContext::user_compat_definitions).
// A pre-pass (ProjectScan).
[[nodiscard]] std::unique_ptr<ProjectScan> user_compat_scan();

// Before the rules: an include of a CUDA header whose conversion comes from a compat header is
// replaced by an include of that header.
void compat_header_pass(migrate::FileMigration& file);

// After the rules: includes the compat headers the file's names need (after its leading
// includes), writes them as side outputs and reports each with FRY1302.
void compat_finish(migrate::FileMigration& file);

}  // namespace ferry::targets::hip
