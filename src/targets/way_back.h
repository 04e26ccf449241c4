// What the other direction's migration writes for a name or a header, without loading that
// direction's rules: tables generated at build time from the built-in rules by
// targets/way_back_gen.cpp (CMakeLists.txt runs it; the output is generated/way_back_tables.cpp).
// A process migrating one way reads them for its round-trip records (docs/targets.md, "Round
// trips"): they are read-only data of the binary, paged in as they are read, where building the
// tables at run time took ~11 MB of heap and ~100 M instructions per process.
//   to_cuda_*: HIP -> CUDA, cuda::build_reverse_rules for the default CUDA release (rules/cuda_version.h),
//              read by the hip target (cuda_record_pass.cpp);
//   to_hip_*:  CUDA -> HIP, rules/cuda2hip/ without the alt-* tables, read by the cuda target
//              (hip_record_pass.cpp).
// Each gives the matching rule's replacement (a name, a header path or a call template such as
// `cudaMemPrefetchAsync($0, ...)`), or an empty view where the table has no rule for the name or
// its rule has no replacement. The unit test (tests/unit/way_back_test.cpp) checks them against
// the rule sets they are made from.
#pragma once

#include <string_view>

namespace ferry::targets::way_back {

[[nodiscard]] std::string_view to_cuda_identifier(std::string_view hip);
[[nodiscard]] std::string_view to_cuda_header(std::string_view hip);
[[nodiscard]] std::string_view to_hip_identifier(std::string_view cuda);
[[nodiscard]] std::string_view to_hip_header(std::string_view cuda);

}  // namespace ferry::targets::way_back
