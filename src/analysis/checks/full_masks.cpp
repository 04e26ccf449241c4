// FRY2206: 32-bit full masks passed to warp functions.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <string>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_full_masks(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (const std::size_t ci : v.occurrences(kWarpSyncFunctions)) {
    if (!v.is(ci + 1, "(") || v.in_directive(ci)) continue;
    const std::string_view name = v.text(ci);
    const auto args = file.call_args(ci + 1);
    if (args.empty() || args[0].empty()) continue;
    const FunctionInfo* scope = nullptr;
    const std::size_t fi = facts.function_at(ci);
    if (fi != npos) scope = &facts.functions[fi];
    const auto m = eval(v, facts, args[0].first, args[0].last, scope);
    if (!m || (*m != 0xffffffffLL && *m != -1)) continue;
    const std::string text(file.span_text(args[0].first, args[0].last));
    report(file, opt, Diag::FullMask32, args[0].first,
           "32-bit full mask '" + text + "' passed to " + std::string(name) + "; " + prof_why(p) +
               ": the mask names lanes 0..31 only, and a full-wavefront mask is 64 bits wide",
           "pass a mask of every lane of the wavefront: __activemask(), or 0xffffffffffffffffull "
           "(~0ull) under __HIP_PLATFORM_AMD__");
  }
}

}  // namespace ferry::analysis
