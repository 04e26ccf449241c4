#include "targets/member_renames.h"

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "core/split.h"
#include "rules/builtin.h"

namespace ferry::targets {
namespace {

// One row: CUDA's member (or dotted member path) and HIP's, and the first HIP release that spells
// it CUDA's way (unknown: none does, the row always applies).
struct MemberRow {
  std::vector<std::string> cuda, hip;  // the path's member names
  rules::Version before;
};

std::vector<std::string> path_of(std::string_view s) {
  std::vector<std::string> out;
  for (std::string_view p : split(s, '.')) out.emplace_back(p);
  return out;
}

const std::vector<MemberRow>& member_rows() {
  static const std::vector<MemberRow> rows = [] {
    std::vector<MemberRow> t;
    for (std::string_view row : table_rows(rules::builtin_table("member_renames.tsv"))) {
      const std::vector<std::string_view> f = split(row, '\t');
      const auto before = f.size() == 4 ? rules::Version::parse(f[3]) : std::optional<rules::Version>(rules::Version{});
      if ((f.size() != 3 && f.size() != 4) || f[0].empty() || f[1].empty() || !before)
        throw std::runtime_error("rules/member_renames.tsv: expected cuda_member, hip_member, structs[, before]: " +
                                 std::string(row));
      MemberRow r{path_of(f[0]), path_of(f[1]), *before};
      for (const auto* p : {&r.cuda, &r.hip})
        for (const std::string& m : *p)
          if (m.empty()) throw std::runtime_error("rules/member_renames.tsv: empty member in " + std::string(row));
      t.push_back(std::move(r));
    }
    return t;
  }();
  return rows;
}

// The path `from` as a member access starting at code token ci (`. a . b`, ci at `a`): the index
// of its last token, or npos. A designated initializer (`{.a = ...}`, `, .a`) matches only where
// `designators` (one name renamed to one name: C++ has no nested designators).
std::size_t match_path(const migrate::FileMigration& file, std::size_t ci, const std::vector<std::string>& from,
                       bool designators) {
  if (ci == 0 || !(file.is(ci - 1, ".") || file.is(ci - 1, "->"))) return migrate::npos;
  const bool designator = file.is(ci - 1, ".") && ci >= 2 && (file.is(ci - 2, "{") || file.is(ci - 2, ","));
  if (designator && !designators) return migrate::npos;
  std::size_t k = ci;
  for (std::size_t i = 0; i < from.size(); ++i, k += 2) {
    if (i > 0 && !file.is(k - 1, ".")) return migrate::npos;
    if (k >= file.code_size() || !file.is(k, from[i]) || file.excluded(k) || file.touched(k)) return migrate::npos;
  }
  return k - 2;
}

// `to`'s path ends with `from`'s (`compressionType` in `allocFlags.compressionType`), and the
// tokens before ci already spell the rest: the access is `to` already.
bool already_spelled(const migrate::FileMigration& file, std::size_t ci, const std::vector<std::string>& from,
                     const std::vector<std::string>& to) {
  if (to.size() <= from.size()) return false;
  for (std::size_t i = 0; i < from.size(); ++i)
    if (to[to.size() - from.size() + i] != from[i]) return false;
  std::size_t k = ci;
  for (std::size_t i = to.size() - from.size(); i-- > 0;) {
    if (k < 2 || !file.is(k - 1, ".") || !file.is(k - 2, to[i])) return false;
    k -= 2;
  }
  return true;
}

std::string joined(const std::vector<std::string>& path) {
  std::string s;
  for (const std::string& m : path) s += (s.empty() ? "" : ".") + m;
  return s;
}

}  // namespace

void rename_members(migrate::FileMigration& file, bool to_hip, rules::Version hip) {
  std::vector<const MemberRow*> rows;
  for (const MemberRow& r : member_rows()) {
    // A release-bound row renames towards HIP only for an older target release; towards CUDA
    // always (CUDA has one spelling).
    if (to_hip && r.before.known() && !(hip.known() && hip < r.before)) continue;
    rows.push_back(&r);
  }
  if (rows.empty()) return;
  // A path starts at its first member's name: only those names' occurrences can match (decided
  // once per distinct name of the file).
  std::set<std::string_view> first_names;
  for (const MemberRow* r : rows) first_names.insert(to_hip ? r->cuda.front() : r->hip.front());
  for (const std::size_t ci :
       analysis::detail::identifiers_where(file, [&](std::string_view name) { return first_names.count(name) > 0; })) {
    if (ci == 0) continue;
    for (const MemberRow* r : rows) {
      const std::vector<std::string>& from = to_hip ? r->cuda : r->hip;
      const std::vector<std::string>& to = to_hip ? r->hip : r->cuda;
      const std::size_t last = match_path(file, ci, from, from.size() == 1 && to.size() == 1);
      if (last == migrate::npos || already_spelled(file, ci, from, to)) continue;
      if (file.replace(ci, last, joined(to))) file.count_converted("driver");
      break;
    }
  }
}

}  // namespace ferry::targets
