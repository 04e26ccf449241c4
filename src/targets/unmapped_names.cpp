#include "targets/unmapped_names.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "core/split.h"
#include "lex/lexer.h"
#include "migrate/file_migration.h"
#include "rules/builtin.h"

namespace ferry::targets {

UnmappedNames::UnmappedNames(std::string_view table, std::string_view dialect, std::vector<std::string> prefixes)
    : prefixes_(std::move(prefixes)) {
  std::vector<std::pair<std::string_view, std::string_view>> keys;  // whats_'s family and header
  for (const std::string_view line : table_rows(rules::builtin_table(table))) {
    const std::size_t a = line.find('\t');
    const std::size_t b = a == std::string_view::npos ? a : line.find('\t', a + 1);
    if (b == std::string_view::npos || line.find('\t', b + 1) != std::string_view::npos)
      throw std::runtime_error("rules/" + std::string(table) + ": expected name, family, header");
    const std::string_view name = line.substr(0, a);
    const std::string_view family = line.substr(a + 1, b - a - 1);
    const std::string_view header = line.substr(b + 1);
    if (!has_prefix(name))
      throw std::runtime_error("rules/" + std::string(table) + ": '" + std::string(name) +
                               "' starts with none of the dialect's prefixes");
    std::size_t what = 0;
    while (what < keys.size() && keys[what] != std::pair(family, header)) ++what;
    if (what == keys.size()) {
      keys.emplace_back(family, header);
      whats_.push_back(
          {std::string(family), std::string(dialect) + " " + std::string(family) + " API, " + std::string(header)});
    }
    names_.push_back({name, static_cast<std::uint32_t>(what)});
  }
  // A name listed twice keeps its first row, as a map's emplace did. The generated tables come
  // sorted (rules/make_api_names.py): then there is nothing to move.
  const auto by_name = [](const Entry& x, const Entry& y) { return x.name < y.name; };
  if (!std::is_sorted(names_.begin(), names_.end(), by_name)) std::stable_sort(names_.begin(), names_.end(), by_name);
  names_.erase(
      std::unique(names_.begin(), names_.end(), [](const Entry& x, const Entry& y) { return x.name == y.name; }),
      names_.end());
}

bool UnmappedNames::has_prefix(std::string_view text) const {
  for (const std::string& p : prefixes_)
    if (text.starts_with(p)) return true;
  return false;
}

const UnmappedApiName* UnmappedNames::find(std::string_view name) const {
  if (!has_prefix(name)) return nullptr;
  const auto it = std::lower_bound(names_.begin(), names_.end(), name,
                                   [](const Entry& e, std::string_view n) { return e.name < n; });
  return it == names_.end() || it->name != name ? nullptr : &whats_[it->what];
}

std::vector<std::string_view> UnmappedNames::names() const {
  std::vector<std::string_view> out;
  out.reserve(names_.size());
  for (const Entry& e : names_) out.push_back(e.name);
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
