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

// One operation of a row's args column (rules/torch2mindspore/, rules/tf2npu/; docs/rules.md). The
// mindspore target takes Rename, Drop, Add and Positional (mindspore::Tables rejects the others).
struct ArgOp {
  enum class Kind { Rename, Drop, DropPositional, Add, Set, SetPositional, Positional, WrapKeyword };
  Kind kind = Kind::Rename;
  std::string from;       // the keyword it reads or writes
  std::string to;         // Rename/Positional: the new keyword; Add/Set/SetPositional: the expression
  std::string func;       // WrapKeyword: the function the value is passed to
  std::string param;      // WrapKeyword: its parameter
  int position = -1;      // DropPositional/SetPositional/Positional
  bool optional = false;  // Add written `+?a=EXPR`: skipped, not a failure, when EXPR cannot be formed
};

// Parses an args column: `a->b` (Rename), `a=drop` and `@N=drop` (Drop, DropPositional),
// `+a=EXPR` and `+?a=EXPR` (Add), `a:=EXPR` and `@N:=EXPR` (Set, SetPositional), `@N->kw`
// (Positional), `a%func.param` (WrapKeyword); `-` or empty: none. Appends a message to *error for
// a malformed operation.
[[nodiscard]] std::vector<ArgOp> parse_arg_ops(std::string_view text, std::string* error);

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
