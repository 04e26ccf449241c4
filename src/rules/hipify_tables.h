// HIPIFY's public API tables (ROCm/HIPIFY docs/tables/*.md) read as data, and how Ferry's rule
// tables cover them: `ferry rules --stats --against-hipify DIR`.
//
// Each table file `<LIB>_..._supported_by_<COLUMN>.md` lists, per CUDA name, the name HIPIFY
// converts it to in one target column (HIP, ROC, MIOPEN) and the ROCm release that added it ("A").
// A name HIPIFY converts is, for Ferry: the same name; a documented better one (Ferry converts it
// to another name and the row's note says why, naming HIPIFY); declined (Ferry leaves it with a
// note naming HIPIFY); different (another name, no such note); unsupported; or missing.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"
#include "rules/version.h"

namespace ferry::rules {

struct HipifyName {
  std::string table;    // the file's library part: "CUDA_Runtime", "CUBLAS", "CUDNN", ...
  std::string column;   // "HIP", "ROC", "MIOPEN"
  std::string section;  // "1. Device Management"
  std::string cuda;     // "cudaMalloc"
  std::string target;   // "hipMalloc"
  Version added;        // unknown when the table gives none
};

// Reads every single-column table of `dir` (the joint *_and_* tables repeat them). Rows without a
// target name (HIPIFY does not convert them) are skipped. Throws std::runtime_error when `dir`
// holds no table.
[[nodiscard]] std::vector<HipifyName> read_hipify_tables(const std::filesystem::path& dir);

enum class Coverage : std::uint8_t { Same, Better, Declined, Differs, Unsupported, Missing };
inline constexpr std::size_t kCoverageKinds = 6;
[[nodiscard]] std::string_view to_string(Coverage c);

struct CoverageCount {
  std::string table;  // "CUDA_Runtime (HIP)"
  std::array<std::size_t, kCoverageKinds> by_kind{};
  [[nodiscard]] std::size_t total() const;
  [[nodiscard]] std::size_t covered() const {  // same + better
    return by_kind[static_cast<std::size_t>(Coverage::Same)] + by_kind[static_cast<std::size_t>(Coverage::Better)];
  }
};

struct CoverageEntry {
  const HipifyName* name;
  Coverage kind;
  std::string ferry;  // Ferry's replacement ("-" when none, empty when no rule)
};

struct CoverageReport {
  std::vector<CoverageCount> tables;  // in table order, one per table and column used
  CoverageCount total;
  std::vector<CoverageEntry> entries;
};

// `column_for(table)` picks the column a table is compared in (the one matching the library the
// rules convert to), e.g. "MIOPEN" for CUDNN, "ROC" for CUBLAS under --blas=rocblas.
[[nodiscard]] CoverageReport hipify_coverage(const RuleSet& rules, const std::vector<HipifyName>& names,
                                             const std::function<std::string_view(std::string_view)>& column_for);

}  // namespace ferry::rules
