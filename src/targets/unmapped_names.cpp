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
  // The code tokens outside directives, as one sequence: next() and prev() step over directive
  // lines; end is code_size().
  const std::size_t end = v.code_size();
  auto next = [&](std::size_t ci) {  // the first code token at or after `ci` outside a directive
    while (ci < end && v.in_directive(ci)) ++ci;
    return ci;
  };
  auto prev = [&](std::size_t ci) {  // the last one before `ci`, or end
    while (ci > 0) {
      --ci;
      if (!v.in_directive(ci)) return ci;
    }
    return end;
  };
  auto ident = [](std::string_view w) {
    return !w.empty() && (std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_');
  };
  auto add = [&](std::string_view w) {
    if (ident(w) && find(w)) out.emplace(w);
  };
  // Every declaration read here starts at one of these keywords: their occurrences, in file order.
  for (const std::size_t i : v.occurrences({"struct", "union", "enum", "class", "using", "typedef"})) {
    if (v.in_directive(i)) continue;
    const std::size_t n1 = next(i + 1);
    const std::size_t n2 = n1 < end ? next(n1 + 1) : end;
    const std::size_t p1 = prev(i);
    if ((v.is(i, "struct") || v.is(i, "union") || v.is(i, "enum") || v.is(i, "class")) && n2 < end &&
        (v.is(n2, "{") || v.is(n2, ";") || (p1 != end && v.is(p1, "typedef"))))
      add(v.text(n1));  // a definition, a forward declaration, or `typedef struct X_st *X;`
    if (v.is(i, "using") && n2 < end && v.is(n2, "=")) add(v.text(n1));
    if (v.is(i, "enum")) {  // enumerators: names after `{` or `,` at the body's own depth
      std::size_t b = n1;
      while (b < end && !v.is(b, "{") && !v.is(b, ";")) b = next(b + 1);
      if (b >= end || !v.is(b, "{")) continue;
      int depth = 0;
      for (std::size_t k = b, before = end; k < end; before = k, k = next(k + 1)) {
        if (v.is(k, "{") || v.is(k, "(")) ++depth;
        else if (v.is(k, "}") || v.is(k, ")")) {
          if (--depth == 0) break;
        } else if (depth == 1 && (v.is(before, "{") || v.is(before, ","))) add(v.text(k));
      }
    }
    if (v.is(i, "typedef")) {  // the last name before the `;` (or `,`) at the typedef's own depth
      int depth = 0;
      std::string_view last;
      for (std::size_t k = n1; k < end; k = next(k + 1)) {
        if (v.is(k, "{") || v.is(k, "(") || v.is(k, "[")) {
          if (v.is(k, "(") && depth == 0) {
            const std::size_t k1 = next(k + 1);
            const std::size_t k2 = k1 < end ? next(k1 + 1) : end;
            if (k2 < end && v.is(k1, "*")) add(v.text(k2));
          }
          ++depth;
        } else if (v.is(k, "}") || v.is(k, ")") || v.is(k, "]")) {
          --depth;
        } else if (depth == 0 && (v.is(k, ";") || v.is(k, ","))) {
          add(last);
          if (v.is(k, ";")) break;
        } else if (depth == 0 && ident(v.text(k))) {
          last = v.text(k);
        }
      }
    }
  }
}

}  // namespace ferry::targets
