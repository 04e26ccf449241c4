// The __shared__ array declarations of a code range (FRY2209 and FRY3201 read them).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/facts.h"
#include "lex/code_view.h"

namespace ferry::analysis {

struct SharedArray {
  std::string name;
  std::size_t name_ci;
  std::size_t decl_ci;                                       // the __shared__ token
  unsigned elem_size;                                        // 0 if unknown
  std::vector<std::pair<std::size_t, std::size_t>> extents;  // code ranges
  std::optional<long long> elements;                         // product of the extents, when constant
  bool per_warp_32 = false;                                  // an extent is 32 or divides by 32 (a literal)
};

// The non-extern __shared__ declarations in code range [first, last]; `scope` names the
// function whose constants size them (null: file scope).
[[nodiscard]] std::vector<SharedArray> shared_arrays(const lex::CodeView& v, const FileFacts& facts, std::size_t first,
                                                     std::size_t last, const FunctionInfo* scope);

}  // namespace ferry::analysis
