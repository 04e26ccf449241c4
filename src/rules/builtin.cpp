#include "rules/builtin.h"

#include <fstream>
#include <sstream>

namespace ferry::rules {

std::string_view builtin_table(std::string_view path) {
  for (const EmbeddedTable& t : builtin_tables())
    if (t.path == path) return t.text;
  return {};
}

void load_builtin(RuleSet& set, std::string_view prefix, std::span<const std::string_view> skip) {
  for (const EmbeddedTable& t : builtin_tables()) {
    if (!t.path.starts_with(prefix)) continue;
    bool skipped = false;
    for (std::string_view s : skip) skipped = skipped || t.path.starts_with(s);
    if (skipped) continue;
    set.load_static_table(t.text, "rules/" + std::string(t.path), RuleSet::Merge::RejectDuplicates);
  }
}

void load_user_file(RuleSet& set, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuleError(path + ": cannot open rule file");
  std::ostringstream text;
  text << in.rdbuf();
  set.load_table(text.str(), path, RuleSet::Merge::Override);
}

}  // namespace ferry::rules
