// What the Python targets (mindspore, tf_npu) share beyond pyparse/: the API facts a framework's
// table gives (rules/<framework>/api.tsv: name, kind, params) and a call is checked against; the
// parse of a script with its two diagnostics; the templates a row writes from a call's arguments.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/file_migration.h"
#include "pyparse/edit_helpers.h"
#include "pyparse/tree.h"

namespace ferry::targets {

// One row of an api.tsv.
struct ApiEntry {
  std::string kind;                 // function|class|method|module|attribute
  std::vector<std::string> params;  // in order; empty for `-` or none
  bool params_known = false;        // false for `-`
  // Whether the API takes `keyword` (a parameter of that name, or **kwargs); true when unknown.
  [[nodiscard]] bool takes(std::string_view keyword) const;
  // Whether it takes `n` positional arguments (*args takes any); true when unknown.
  [[nodiscard]] bool takes_positionals(std::size_t n) const;
};

// Reads an api.tsv (`path` names it in problems): a line is NAME TAB KIND TAB PARAMS, PARAMS a
// comma-separated list or `-` (unknown); `#` lines and blank lines are skipped. The first row of a
// name wins.
void read_api_table(std::string_view text, std::string_view path, std::map<std::string, ApiEntry, std::less<>>& out,
                    std::vector<std::string>& problems);

// The tree of a Python script, or nullopt with FRY1703 (no parser built in) or FRY1704 (the file
// does not parse) reported at line 1; `target` names the target in the message.
[[nodiscard]] std::optional<pyparse::Tree> parse_script(migrate::FileMigration& file, std::string_view target);

// A row's expression `expr` with {@N}, {kw} and {a|@N} replaced by those arguments of the call
// (`render` gives an argument node's text), or "" when one is missing.
[[nodiscard]] std::string expand_arguments(const std::string& expr, const pyparse::CallArgs& a, const pyparse::Tree& t,
                                           const std::function<std::string(int)>& render);

}  // namespace ferry::targets
