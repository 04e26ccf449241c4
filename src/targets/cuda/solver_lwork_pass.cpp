// hipSOLVER's workspace sizes are bytes on AMD, cuSOLVER's are elements.
//
// HIP code is written and tested against hipSOLVER's rocSOLVER back end, where a `_bufferSize`
// query (regular API, hipsolverDsyevd_bufferSize, and compatibility API, hipsolverDnDsyevd_bufferSize)
// reports the workspace in bytes and a routine takes `lwork` in bytes (rocblas_set_workspace). So
// HIP code allocates `hipMalloc(&work, lwork)`. cuSOLVER's legacy dense API counts elements of the
// routine's type in both places: migrated as renames, such code allocates 1/sizeof(T) of what the
// routine uses (rocm-examples' hipSOLVER syevd and sygvj failed on the H100 with
// EXECUTION_FAILED / INTERNAL_ERROR; the others overran silently).
//
// The migrated code keeps the HIP meaning, bytes, in its own variables: a query's result is
// turned into bytes as it returns, `ferry::cuda_compat::solver_lwork_bytes<double>(
// cusolverDnDsyevd_bufferSize(..., &lwork), &lwork)`, and a routine's size into elements as it is
// passed, `ferry::cuda_compat::solver_lwork_elements<double>(lwork)` (ferry/compat_cuda.h). Code
// that allocates `sizeof(T) * lwork` (written for cuSOLVER's convention) then allocates more than
// needed, never less. Where the size is passed through something the pass cannot copy (a pointer
// expression with side effects or HIP names), FRY1315 says what to check. Not on the way back of a
// CUDA -> HIP migration: the CUDA original counted elements. The positions of the size parameters
// are data, rules/cusolver_lwork.tsv (rules/make_cusolver_lwork.py from cusolverDn.h).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/split.h"
#include "rules/builtin.h"
#include "rules/rule_set.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

struct LworkParam {
  std::size_t index;
  std::string element;
  bool query;
};

const std::map<std::string, LworkParam, std::less<>>& lwork_table() {
  static const std::map<std::string, LworkParam, std::less<>> table = [] {
    std::map<std::string, LworkParam, std::less<>> t;
    for (std::string_view row : table_rows(rules::builtin_table("cusolver_lwork.tsv"))) {
      const std::vector<std::string_view> f = split(row, '\t');
      if (f.size() < 4) continue;
      t.emplace(std::string(f[0]), LworkParam{static_cast<std::size_t>(std::stoul(std::string(f[1]))),
                                              std::string(f[2]), f[3] == "query"});
    }
    return t;
  }();
  return table;
}

// The HIP argument index that becomes cuSOLVER's argument `cuda_index` under rule `r`: the same
// for a rename, the `$N` at that place of a call template (`cusolverDnDgesvd_bufferSize($0, $3, $4,
// $5)`); npos when the template writes something else there.
std::size_t hip_index(const rules::Rule& r, std::size_t cuda_index) {
  const std::string_view to = r.to;
  const std::size_t open = to.find('(');
  if (open == std::string_view::npos) return cuda_index;
  std::vector<std::string_view> args;
  int depth = 0;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i < to.size(); ++i) {
    const char c = to[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
      args.push_back(to.substr(start, i - start));
      break;
    }
    if (c == ',' && depth == 0) {
      args.push_back(to.substr(start, i - start));
      start = i + 1;
    }
  }
  if (cuda_index >= args.size()) return migrate::npos;
  std::string_view a = args[cuda_index];
  while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
  while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
  if (a.size() < 2 || a.front() != '$') return migrate::npos;
  std::size_t n = 0;
  for (char c : a.substr(1)) {
    if (c < '0' || c > '9') return migrate::npos;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

// The cuSOLVER name a rule writes: a rename's target, a call template's head.
std::string_view cuda_name(const rules::Rule& r) {
  const std::string_view to = r.to;
  return to.substr(0, to.find('('));
}

// An argument the pass may copy or wrap: names, `&`, `*`, `.`, `->`, subscripts with names or
// numbers; no call (side effects) and no HIP name (the copy would keep it).
bool plain(const migrate::FileMigration& file, const lex::ArgRange& a) {
  if (a.empty()) return false;
  for (std::size_t k = a.first; k <= a.last; ++k) {
    if (file.is_identifier(k)) {
      const std::string_view t = file.text(k);
      if (t.starts_with("hip") || t.starts_with("HIP") || t.starts_with("roc")) return false;
      continue;
    }
    if (file.is_number(k) || file.is(k, "&") || file.is(k, "*") || file.is(k, ".") || file.is(k, "->") ||
        file.is(k, "[") || file.is(k, "]") || file.is(k, "::"))
      continue;
    return false;
  }
  return true;
}

}  // namespace

void solver_lwork_pass(migrate::FileMigration& file) {
  if (from_cuda(file)) return;
  const auto& table = lwork_table();
  bool used = false;
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || (ci > 0 && file.is(ci - 1, "define")))
      continue;
    const std::string_view name = file.text(ci);
    if (!name.starts_with("hipsolver") || file.is_member_or_qualified(ci)) continue;
    const rules::Rule* r = file.target().rules().find_identifier(name);
    if (!r || !r->has_replacement()) continue;
    const auto it = table.find(cuda_name(*r));
    if (it == table.end()) continue;
    const LworkParam& p = it->second;
    const std::size_t hi = hip_index(*r, p.index);
    const std::size_t close = file.match_bracket(ci + 1);
    const std::vector<lex::ArgRange> args = file.call_args(ci + 1);
    if (hi == migrate::npos || close == migrate::npos || hi >= args.size()) continue;
    const lex::ArgRange& a = args[hi];
    const std::string what = std::string(name) + "'s workspace size";
    // in a macro's definition the pass does not rewrite (the arguments may be the macro's own)
    if (!plain(file, a) || file.in_directive(ci)) {
      file.diag(Diag::SolverLworkUnits, Severity::Warning, ci,
                what + " counts bytes in hipSOLVER on AMD and elements of " + p.element + " in cuSOLVER's " +
                    std::string(it->first) + "; its argument '" + std::string(file.span_text(a.first, a.last)) +
                    "' is not converted" + (file.in_directive(ci) ? " (in a macro definition)" : ""),
                p.query
                    ? "multiply the size the query returns by sizeof(" + p.element + ") where the code allocates bytes"
                    : "pass the size divided by sizeof(" + p.element + ")");
      continue;
    }
    const std::string compat = "ferry::cuda_compat::solver_lwork_";
    if (p.query) {
      // the whole call: its status comes back, the size it wrote becomes bytes
      if (!file.insert_before(ci, compat + "bytes<" + p.element + ">(") ||
          !file.edits().insert(file.code(close).end, ", " + std::string(file.span_text(a.first, a.last)) + ")"))
        continue;
    } else {
      if (!file.insert_before(a.first, compat + "elements<" + p.element + ">(") ||
          !file.edits().insert(file.code(a.last).end, ")"))
        continue;
    }
    file.diag(Diag::SolverLworkUnits, Severity::Note, ci,
              what + " counts bytes in hipSOLVER on AMD and elements of " + p.element + " in cuSOLVER's " +
                  std::string(it->first) + ": " +
                  (p.query ? "the size the query returns is made bytes, as the HIP code expects"
                           : "the size is passed as elements"),
              "");
    file.count_converted("cusolver");
    used = true;
  }
  if (used) use_compat_header(file);
}

}  // namespace ferry::targets::cuda
