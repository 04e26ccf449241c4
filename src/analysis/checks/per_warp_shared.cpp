// FRY2209: __shared__ arrays sized for 32-lane warps.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <string>

#include "analysis/checks/shared_arrays.h"
#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_per_warp_shared(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (const SharedArray& a : shared_arrays(v, facts, fn.body_open + 1, fn.body_close - 1, &fn)) {
      if (!a.per_warp_32) continue;
      // subscripted by a lane id or warp index?
      std::size_t use = npos;
      for (const std::size_t i : occurrences_in(v.occurrences(a.name), fn.body_open + 1, fn.body_close)) {
        if (use != npos) break;
        if (i == a.name_ci || !v.is(i + 1, "[")) continue;
        const std::size_t close = v.partner(i + 1);
        if (close == npos) continue;
        if (range_taint(v, facts, facts.functions[fi].defs, i + 2, close - 1) & kLane) use = i;
      }
      if (use == npos) continue;
      report(file, opt, Diag::PerWarpShared32, a.name_ci,
             "__shared__ '" + a.name +
                 "' is sized for 32-lane warps and indexed by a lane id or "
                 "warp index (line " +
                 std::to_string(file.code(use).line) + "); " + prof_why(p) +
                 ": one slot per 32-lane warp no longer matches the wavefronts, and a lane id "
                 "(0.." +
                 std::to_string(p.wave_size - 1) + ") overruns 32 slots",
             "size it from the wavefront width (e.g. [1024 / WAVE] with WAVE = " + std::to_string(p.wave_size) +
                 " on " + p.name +
                 ", a per-target constant) and index it with threadIdx.x / warpSize or "
                 "threadIdx.x % warpSize");
    }
  }
}

}  // namespace ferry::analysis
