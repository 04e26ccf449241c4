// API names of the source dialect that no rule maps (rules/cuda_api_names.tsv for CUDA → HIP,
// rules/hip_api_names.tsv for HIP → CUDA; both made from the installed headers by
// rules/make_api_names.py). The generic rule pass reports a use of one of them (FRY1004) instead
// of leaving it in silence; a project's own declaration of such a name is the user's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "targets/target.h"

namespace ferry::targets {

class UnmappedNames {
 public:
  UnmappedNames() = default;
  // `table`: the embedded rules/<table> (name, family, header); `dialect` names it in messages
  // ("CUDA"); `prefixes`: every name starts with one of them (a cheap first test).
  UnmappedNames(std::string_view table, std::string_view dialect, std::vector<std::string> prefixes);

  [[nodiscard]] const UnmappedApiName* find(std::string_view name) const;
  // The table's names (views into the embedded table).
  [[nodiscard]] std::vector<std::string_view> names() const;
  // The table's names that the files declare themselves: enumerators of an `enum {...}`, the name
  // a `typedef ... NAME;` or `typedef R (*NAME)(...);` introduces, `struct|union|enum NAME {` or
  // `;` (and the tag of `typedef struct NAME_st *NAME;`), `using NAME =`.
  // One file's (its tokens `v`).
  void collect_declared(const lex::CodeView& v, std::unordered_set<std::string>& out) const;
  // A pre-pass (ProjectScan) that collects them into ProjectContext::declared_api_names; `this`
  // outlives it.
  [[nodiscard]] std::unique_ptr<ProjectScan> declared_scan() const;

 private:
  [[nodiscard]] bool has_prefix(std::string_view text) const;
  struct Entry {
    std::string_view name;  // into the embedded table
    std::uint32_t what;     // index in whats_
  };
  std::vector<Entry> names_;  // sorted by name, for find()
  // One per family and header: most names share theirs with hundreds of others.
  std::vector<UnmappedApiName> whats_;
  std::vector<std::string> prefixes_;
};

}  // namespace ferry::targets
