// Calls through the project's macros named like warp intrinsics: `#define __shfl(v, d)
// __shfl_sync(0xffffffff, v, d)`. The call `__shfl(v, 0)` is a macro invocation with the macro's
// parameters, so the width a form adds belongs in the body's shuffle, not at the call.
// Also the function bodies the row and logical forms scan, to which those macro bodies are added.
#include "analysis/wave64_fix/planner.h"

namespace ferry::analysis::wave64_plan {

bool inside_conditional(const Tokens& v, std::size_t hash_ci) {
  int depth = 0;
  bool guard = false;  // the first directive is `#ifndef G` and the next `#define G`
  bool first = true;
  for (std::size_t ci = 0; ci + 1 < hash_ci; ++ci) {
    if (!(v.f.code(ci).in_directive && v.is(ci, "#")) || (ci > 0 && v.line(ci - 1) == v.line(ci))) continue;
    const std::string_view d = v.t(ci + 1);
    if (first && d == "ifndef" && ci + 2 < v.size() && v.ident(ci + 2)) {
      // the guard's #define follows it directly
      const std::size_t n = ci + 3;
      guard = n + 2 < v.size() && v.is(n, "#") && v.is(n + 1, "define") && v.t(n + 2) == v.t(ci + 2);
    }
    first = false;
    if (is_one_of(d, {"if", "ifdef", "ifndef"})) ++depth;
    else if (d == "endif" && depth > 0) --depth;
  }
  return depth > (guard ? 1 : 0);
}

bool Planner::through_macro(std::string_view s, std::set<std::string>& seen, std::vector<Range>& ranges,
                            std::string& why) const {
  if (s.ends_with("_sync")) return false;
  const auto it = intrinsic_macros_.find(s);
  if (it == intrinsic_macros_.end()) return false;
  for (const Range& body : it->second)
    if (body.conditional) {
      why = "the macro '" + std::string(s) + "' is defined under #if (" + in_[body.file].key + ":" +
            std::to_string(tok(body.file).line(body.first - 1)) +
            "): the fixer cannot tell whether a call reaches it or HIP's " + std::string(s);
      return true;
    }
  if (seen.insert(std::string(it->first)).second) ranges.insert(ranges.end(), it->second.begin(), it->second.end());
  return true;
}

std::vector<Planner::Range> Planner::body_ranges(const std::vector<std::size_t>& ids,
                                                 const std::vector<bool>& lane_ctx) const {
  std::vector<Range> ranges;
  for (std::size_t id : ids)
    if (lane_ctx[id])
      ranges.push_back({fns_[id].file, info(fns_[id]).body_open + 1, info(fns_[id]).body_close, &info(fns_[id])});
  return ranges;
}

}  // namespace ferry::analysis::wave64_plan
