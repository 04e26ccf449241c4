#include "targets/target.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/memory.h"
#include "lex/code_view.h"
#include "lex/lexer.h"
#include "migrate/file_migration.h"

namespace ferry::targets {

std::string_view source_text(const SourceView& f, std::string& own) {
  if (!f.read) return f.text;
  own = f.read();
  return own;
}

void run_project_scans(const std::vector<SourceView>& files, std::span<ProjectScan* const> scans, const Target& target,
                       ProjectContext& ctx) {
  static const Options kNoOptions;  // the views run no pass: nothing reads their options
  std::vector<ProjectScan*> wanting;
  for (const SourceView& f : files) {
    std::string own;
    const bool borrowed = f.lexed && *f.lexed;
    const std::string_view text = borrowed ? (*f.lexed)->source() : source_text(f, own);
    wanting.clear();
    for (ProjectScan* s : scans)
      if (s->wants(f, text)) wanting.push_back(s);
    if (wanting.empty()) continue;
    std::optional<migrate::FileMigration> view;
    if (borrowed) view.emplace(f.path, std::move(**f.lexed), target, kNoOptions, ctx);
    else view.emplace(f.path, text, target, kNoOptions, ctx);
    for (ProjectScan* s : wanting) s->file(f, *view, ctx);
    if (borrowed) f.lexed->emplace(std::move(*view).release_view());
  }
  if (files.size() > 1) give_back_free_memory();  // the files' texts and tokens, before the merges
  for (ProjectScan* s : scans) s->finish(files, ctx);
}

void Target::prepare_project(const std::vector<SourceView>& files, ProjectContext& ctx) const {
  std::vector<std::unique_ptr<ProjectScan>> owned;
  owned.push_back(defined_macros_scan());
  for (std::unique_ptr<ProjectScan>& s : project_scans()) owned.push_back(std::move(s));
  std::vector<ProjectScan*> scans;
  for (const auto& s : owned) scans.push_back(s.get());
  run_project_scans(files, scans, *this, ctx);
}

namespace {

class IncludesScan final : public ProjectScan {
 public:
  // Every header-name token, in file order. The lexer makes one only after `include`,
  // `include_next` or `import` (the first word of a directive), of the first token after it on
  // its line that starts with `<` or `"`; so each of those words' occurrences (the name index) is
  // followed to that token, instead of walking every token of the file.
  void file(const SourceView& f, const migrate::FileMigration& view, ProjectContext& ctx) override {
    const std::string_view text = view.source();
    const lex::TokenList& toks = view.tokens();
    headers_.clear();
    std::size_t last = toks.size();  // the header name taken last (a line's two words reach one)
    for (const std::uint32_t w : view.occurrences({"include", "include_next", "import"})) {
      for (std::size_t t = view.token_index(w) + 1; t < toks.size(); ++t) {
        const lex::Kind k = toks.kind(t);
        if (k == lex::Kind::Newline) break;
        if (lex::is_trivia(k)) continue;
        if (k == lex::Kind::HeaderName) {
          if (t != last) headers_.push_back(text.substr(toks.begin(t), toks.end(t) - toks.begin(t)));
          last = t;
          break;
        }
        if (text[toks.begin(t)] == '<' || text[toks.begin(t)] == '"') break;
      }
    }
    ctx.includes.set(f.path, headers_);
  }
  void finish(const std::vector<SourceView>&, ProjectContext&) override {}

 private:
  std::vector<std::string_view> headers_;  // this file's, into its text
};

// The names that the files `#define` (object- and function-like macros alike).
class DefinedMacrosScan final : public ProjectScan {
 public:
  bool wants(const SourceView&, std::string_view text) const override {
    return text.find("define") != std::string_view::npos;
  }
  // `# define NAME`: the directive's second code token is `define`, its third an identifier, on
  // one line (no newline token between them; a continuation is whitespace). Visited from the
  // occurrences of `define`.
  void file(const SourceView&, const migrate::FileMigration& view, ProjectContext& ctx) override {
    const lex::TokenList& toks = view.tokens();
    auto newline_between = [&](std::size_t a, std::size_t b) {  // token indices, a < b
      for (std::size_t t = a + 1; t < b; ++t)
        if (toks.kind(t) == lex::Kind::Newline) return true;
      return false;
    };
    for (const std::uint32_t w : view.occurrences("define")) {
      const std::size_t tw = view.token_index(w);
      if (w == 0 || w + 1 >= view.code_size() || !toks.in_directive(tw)) continue;
      const std::size_t tp = view.token_index(w - 1);  // the directive's first code token
      if (!toks.in_directive(tp) || newline_between(tp, tw)) continue;
      if (w >= 2) {
        const std::size_t tq = view.token_index(w - 2);
        if (toks.in_directive(tq) && !newline_between(tq, tp)) continue;  // `define` is not the second
      }
      const std::size_t tm = view.token_index(w + 1);
      if (toks.in_directive(tm) && toks.kind(tm) == lex::Kind::Identifier && !newline_between(tw, tm))
        ctx.defined_macros.insert(std::string(view.text(w + 1)));  // no node made for a name seen before
    }
  }
  void finish(const std::vector<SourceView>&, ProjectContext&) override {}
};

}  // namespace

std::unique_ptr<ProjectScan> includes_scan() { return std::make_unique<IncludesScan>(); }
std::unique_ptr<ProjectScan> defined_macros_scan() { return std::make_unique<DefinedMacrosScan>(); }

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
  const std::string* other = includes.first_ending_with(path);  // the first in IncludeLists::begin's order
  return other ? *other : beside;
}

}  // namespace ferry::targets
