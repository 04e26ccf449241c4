// The effort model (docs/scan.md): hours per file and target from its uses, and the levels.
#include <set>

#include "scan/scan.h"

namespace ferry::scan {

Effort file_effort(const std::vector<const ApiUse *> &uses,
                   std::string_view target, bool parsed_source) {
  Effort e;
  std::set<std::string> seen;
  bool hard = false;
  bool any = false;
  for (const ApiUse *u : uses) {
    const auto it = u->status.find(std::string(target));
    if (it == u->status.end())
      continue;
    any = true;
    const std::string &st = it->second;
    const bool first = seen.insert(u->name).second;
    if (u->kind == "inline-asm") {
      e.hours += 4.0;
      hard = true;
    } else if (u->kind == "kernel") {
      e.hours += 0.25;
    } else if (u->kind == "launch") {
      e.hours += 0.02;
    } else if (u->kind == "warp-intrinsic") {
      e.hours += 0.25;
    } else if (st == "unsupported") {
      e.hours += first ? 2.0 : 0.25;
      hard = true;
    } else if (st == "changed") {
      e.hours += first ? 0.5 : 0.1;
    } else if (st == "unknown") {
      e.hours += first ? 0.5 : 0.05;
    } else if (st == "deprecated") {
      e.hours += 0.1;
    }
  }
  if (any && parsed_source)
    e.hours += 0.1; // build, compile and test the ported file
  if (!any)
    return e;
  e.level = e.hours >= 8 ? "high" : (hard || e.hours >= 2) ? "medium" : "low";
  return e;
}

std::string overall_level(double hours) {
  if (hours <= 0)
    return "none";
  return hours < 16 ? "low" : hours < 80 ? "medium" : "high";
}

} // namespace ferry::scan
