// FRY3204: dynamic shared memory requests above the most a block can get.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_dynamic_lds(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  auto flag = [&](std::size_t at, long long bytes, const std::string& what) {
    const long long floats = p.lds_max_bytes / 4;
    report(file, opt, Diag::DynamicLdsLimit, at,
           what + " asks for " + bytes_str(bytes) + " of dynamic shared memory; " + p.name + " gives a block at most " +
               bytes_str(p.lds_max_bytes) + ", so the launch fails",
           "stage at most " + bytes_str(p.lds_max_bytes) + " (" + std::to_string(floats) +
               " floats) per block: tile the data (a loop over chunks of that size) or keep it in "
               "global memory");
  };
  auto scope_at = [&](std::size_t ci) -> const FunctionInfo* {
    const std::size_t fi = facts.function_at(ci);
    return fi == npos ? nullptr : &facts.functions[fi];
  };
  // The launches and the attribute calls, in file order.
  std::vector<std::size_t> at = launch_opens(v);
  for (const std::size_t ci : v.occurrences({"cudaFuncSetAttribute", "hipFuncSetAttribute"})) at.push_back(ci);
  std::sort(at.begin(), at.end());
  for (const std::size_t ci : at) {
    if (v.code(ci).kind == lex::Kind::LaunchOpen) {
      const FunctionInfo* scope = scope_at(ci);
      const auto args = launch_args(v, ci);
      if (args.size() < 3 || args[2].empty()) continue;
      const auto n = eval(v, facts, args[2].first, args[2].last, scope);
      if (n && *n > p.lds_max_bytes)
        flag(args[2].first, *n, "launch of '" + std::string(ci > 0 ? v.text(ci - 1) : "") + "'");
      continue;
    }
    if (!v.is(ci + 1, "(")) continue;
    const auto args = file.call_args(ci + 1);
    if (args.size() != 3 || args[1].empty() || args[2].empty()) continue;
    bool dyn = false;
    for (std::size_t i = args[1].first; i <= args[1].last; ++i)
      if (is_one_of(v.text(i),
                    {"cudaFuncAttributeMaxDynamicSharedMemorySize", "hipFuncAttributeMaxDynamicSharedMemorySize"}))
        dyn = true;
    if (!dyn) continue;
    const auto n = eval(v, facts, args[2].first, args[2].last, scope_at(ci));
    if (n && *n > p.lds_max_bytes) flag(args[2].first, *n, std::string(v.text(ci)));
  }
}

}  // namespace ferry::analysis
