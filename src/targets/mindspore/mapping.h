// The PyTorch → MindSpore mapping as data: rules/torch2mindspore/*.tsv (torch, mindspore, status,
// args, note) and the MindSpore API facts rules/mindspore/api.tsv (name, kind, params), both
// embedded at build time (docs/targets.md#mindspore, docs/rules.md).
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "targets/python_api.h"

namespace ferry::targets::mindspore {

enum class Status { Same, Diff, Unsupported };

struct Mapping {
  std::string torch;  // torch.nn.Linear
  std::string ms;     // mindspore.nn.Dense, or "" for `-`
  Status status = Status::Same;
  std::vector<ArgOp> ops;
  std::string note;   // "" for `-`
  std::string where;  // "torch2mindspore/core.tsv:12"
};

class Tables {
 public:
  // Reads the embedded tables (once; thread-safe).
  [[nodiscard]] static const Tables& builtin();
  // Reads tables from text: each item is (path, text). Rows of core.tsv win over the same torch name
  // elsewhere; otherwise the first row wins and the others are listed in duplicates().
  static Tables from_text(const std::vector<std::pair<std::string, std::string_view>>& mapping_files,
                          std::string_view api_text);

  [[nodiscard]] const Mapping* find(std::string_view torch) const;
  [[nodiscard]] const ApiEntry* api(std::string_view name) const;
  [[nodiscard]] const std::map<std::string, Mapping, std::less<>>& rows() const { return rows_; }
  [[nodiscard]] const std::map<std::string, ApiEntry, std::less<>>& api_entries() const { return api_; }
  [[nodiscard]] const std::vector<std::string>& problems() const { return problems_; }
  [[nodiscard]] const std::vector<std::string>& duplicates() const { return duplicates_; }

 private:
  std::map<std::string, Mapping, std::less<>> rows_;
  std::map<std::string, ApiEntry, std::less<>> api_;
  std::vector<std::string> problems_;
  std::vector<std::string> duplicates_;
};

// A name (and the keywords used with it) that a pass writes itself, not through a table row: the
// unit test checks each against rules/mindspore/api.tsv like the rows' names.
struct EmittedName {
  std::string_view name;                       // mindspore.value_and_grad
  std::span<const std::string_view> keywords;  // has_aux
};
[[nodiscard]] std::span<const EmittedName> pass_emitted_names();

}  // namespace ferry::targets::mindspore
