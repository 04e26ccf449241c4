#include "targets/target.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lex/code_view.h"
#include "lex/lexer.h"

namespace ferry::targets {

const lex::CodeView& code_view(const SourceView& f, std::optional<lex::CodeView>& own) {
  if (f.lexed && *f.lexed) return **f.lexed;
  return own.emplace(f.text);
}

void collect_includes(const std::vector<SourceView>& files, ProjectContext& ctx) {
  for (const SourceView& f : files) {
    std::vector<std::string>& inc = ctx.includes[f.path];
    std::optional<lex::CodeView> own;
    for (const lex::Token& t : code_view(f, own).tokens())
      if (t.kind == lex::Kind::HeaderName) inc.emplace_back(f.text.substr(t.begin, t.end - t.begin));
  }
}

namespace {

std::string or_list(std::string_view comma_separated) {
  std::vector<std::string> v;
  std::size_t at = 0;
  while (at <= comma_separated.size()) {
    const std::size_t comma = std::min(comma_separated.find(',', at), comma_separated.size());
    v.emplace_back(comma_separated.substr(at, comma - at));
    at = comma + 1;
  }
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return s;
}

bool is_choice(std::string_view choices, std::string_view value) {
  std::size_t at = 0;
  while (at <= choices.size()) {
    const std::size_t comma = std::min(choices.find(',', at), choices.size());
    if (choices.substr(at, comma - at) == value) return true;
    at = comma + 1;
  }
  return false;
}

std::string takers_of(std::string_view option) {
  std::string s;
  for (const TargetInfo* t : list_targets())
    if (find_option(*t, option)) s += (s.empty() ? "" : ", ") + std::string(t->name);
  return s;
}

}  // namespace

const OptionSpec* find_option(const TargetInfo& info, std::string_view name) {
  for (const OptionSpec& o : info.options)
    if (o.name == name) return &o;
  return nullptr;
}

Target::Target(const TargetInfo& info, const Options& options) : info_(info) {
  for (const auto& [name, value] : options.values) {
    const OptionSpec* spec = find_option(info, name);
    if (!spec) {
      const std::string takers = takers_of(name);
      throw std::invalid_argument("--" + name + " is not an option of target '" + std::string(info.name) + "'" +
                                  (takers.empty() ? std::string() : " (it is one of: " + takers + ")"));
    }
    if (!spec->flag && !spec->choices.empty() && !is_choice(spec->choices, value))
      throw std::invalid_argument("--" + name + " must be " + or_list(spec->choices) + ", not '" + value + "'");
  }
  for (const OptionSpec& o : info.options) {
    const auto given = options.values.find(o.name);
    values_.emplace(std::string(o.name), given != options.values.end() ? given->second : std::string(o.default_value));
  }
}

const std::string& Target::option(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("target '" + std::string(info_.name) + "' has no option --" + std::string(name));
  return it->second;
}

void Target::set_option(std::string_view name, std::string value) {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("target '" + std::string(info_.name) + "' has no option --" + std::string(name));
  it->second = std::move(value);
}

std::vector<std::string_view> Target::option_values() const {
  std::vector<std::string_view> v;
  for (const OptionSpec& o : info_.options) v.push_back(option(o.name));
  return v;
}

std::string ProjectContext::project_include(const std::string& dir, const std::string& path) const {
  const std::string beside = dir + path;
  if (includes.contains(beside)) return beside;
  for (const auto& [other, _] : includes)
    if (other == path || other.ends_with("/" + path)) return other;
  return beside;
}

}  // namespace ferry::targets
