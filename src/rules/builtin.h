// The rule tables under rules/, compiled into the binary at build time (see cmake/embed_rules.cmake).
#pragma once

#include <span>
#include <string_view>

#include "rules/rule_set.h"

namespace ferry::rules {

struct EmbeddedTable {
  std::string_view path;  // relative to rules/, e.g. "cuda2hip/runtime.tsv"
  std::string_view text;
};

[[nodiscard]] std::span<const EmbeddedTable> builtin_tables();
// The text of the built-in table at `path` ("profiles/profiles.tsv"); empty when there is none.
// Read its rows with table_rows() (core/split.h).
[[nodiscard]] std::string_view builtin_table(std::string_view path);

// Loads every built-in table whose path starts with `prefix` (e.g. "cuda2hip/"), skipping those
// whose path starts with any of `skip`. Duplicates across tables are errors.
void load_builtin(RuleSet& set, std::string_view prefix, std::span<const std::string_view> skip = {});

// Loads a user's rule file; its rows override built-in ones. Throws RuleError.
void load_user_file(RuleSet& set, const std::string& path);

}  // namespace ferry::rules
