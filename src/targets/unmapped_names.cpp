#include "targets/unmapped_names.h"

#include <cctype>
#include <optional>
#include <stdexcept>

#include "core/split.h"
#include "lex/lexer.h"
#include "migrate/file_migration.h"
#include "rules/builtin.h"

namespace ferry::targets {

UnmappedNames::UnmappedNames(std::string_view table, std::string_view dialect, std::vector<std::string> prefixes)
    : prefixes_(std::move(prefixes)) {
  for (const rules::EmbeddedTable& t : rules::builtin_tables()) {
    if (t.path != table) continue;
    for (std::string_view line : split(t.text, '\n')) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || line.front() == '#') continue;
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() != 3) throw std::runtime_error("rules/" + std::string(table) + ": expected name, family, header");
      if (!has_prefix(f[0]))
        throw std::runtime_error("rules/" + std::string(table) + ": '" + std::string(f[0]) +
                                 "' starts with none of the dialect's prefixes");
      names_.emplace(std::string(f[0]),
                     UnmappedApiName{std::string(f[1]),
                                     std::string(dialect) + " " + std::string(f[1]) + " API, " + std::string(f[2])});
    }
  }
}

bool UnmappedNames::has_prefix(std::string_view text) const {
  for (const std::string& p : prefixes_)
    if (text.starts_with(p)) return true;
  return false;
}

const UnmappedApiName* UnmappedNames::find(std::string_view name) const {
  if (!has_prefix(name)) return nullptr;
  const auto it = names_.find(name);
  return it == names_.end() ? nullptr : &it->second;
}

std::vector<std::string> UnmappedNames::names() const {
  std::vector<std::string> out;
  out.reserve(names_.size());
  for (const auto& [name, what] : names_) out.push_back(name);
  return out;
}

namespace {

class DeclaredScan final : public ProjectScan {
 public:
  explicit DeclaredScan(const UnmappedNames& names, const std::vector<std::string>& prefixes)
      : names_(names), prefixes_(prefixes) {}
  bool wants(const SourceView&, std::string_view text) const override {
    for (const std::string& p : prefixes_)
      if (text.find(p) != std::string_view::npos) return true;
    return false;
  }
  void file(const SourceView&, const migrate::FileMigration& v, ProjectContext& ctx) override {
    names_.collect_declared(v, ctx.declared_api_names);
  }
  void finish(const std::vector<SourceView>&, ProjectContext&) override {}

 private:
  const UnmappedNames& names_;
  const std::vector<std::string>& prefixes_;
};

}  // namespace

std::unique_ptr<ProjectScan> UnmappedNames::declared_scan() const {
  return std::make_unique<DeclaredScan>(*this, prefixes_);
}

void UnmappedNames::collect_declared(const lex::CodeView& v, std::unordered_set<std::string>& out) const {
  {
    std::vector<std::string_view> code;  // code tokens outside directives
    for (std::size_t ci = 0; ci < v.code_size(); ++ci)
      if (!v.in_directive(ci)) code.push_back(v.text(ci));
    auto ident = [](std::string_view w) {
      return !w.empty() && (std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_');
    };
    auto add = [&](std::string_view w) {
      if (ident(w) && find(w)) out.emplace(w);
    };
    for (std::size_t i = 0; i < code.size(); ++i) {
      const std::string_view w = code[i];
      if ((w == "struct" || w == "union" || w == "enum" || w == "class") && i + 2 < code.size() &&
          (code[i + 2] == "{" || code[i + 2] == ";" || (i > 0 && code[i - 1] == "typedef")))
        add(code[i + 1]);  // a definition, a forward declaration, or `typedef struct X_st *X;`
      if (w == "using" && i + 2 < code.size() && code[i + 2] == "=") add(code[i + 1]);
      if (w == "enum") {  // enumerators: names after `{` or `,` at the body's own depth
        std::size_t b = i + 1;
        while (b < code.size() && code[b] != "{" && code[b] != ";") ++b;
        if (b >= code.size() || code[b] != "{") continue;
        int depth = 0;
        for (std::size_t k = b; k < code.size(); ++k) {
          if (code[k] == "{" || code[k] == "(") ++depth;
          else if (code[k] == "}" || code[k] == ")") {
            if (--depth == 0) break;
          } else if (depth == 1 && (code[k - 1] == "{" || code[k - 1] == ",")) add(code[k]);
        }
      }
      if (w == "typedef") {  // the last name before the `;` (or `,`) at the typedef's own depth
        int depth = 0;
        std::string_view last;
        for (std::size_t k = i + 1; k < code.size(); ++k) {
          if (code[k] == "{" || code[k] == "(" || code[k] == "[") {
            if (code[k] == "(" && depth == 0 && k + 2 < code.size() && code[k + 1] == "*") add(code[k + 2]);
            ++depth;
          } else if (code[k] == "}" || code[k] == ")" || code[k] == "]") {
            --depth;
          } else if (depth == 0 && (code[k] == ";" || code[k] == ",")) {
            add(last);
            if (code[k] == ";") break;
          } else if (depth == 0 && ident(code[k])) {
            last = code[k];
          }
        }
      }
    }
  }
}

}  // namespace ferry::targets
