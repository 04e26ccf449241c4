// The effort model (docs/scan.md): hours per file and target from its uses, and the levels.
#include <map>
#include <set>
#include <string>

#include "scan/scan.h"

namespace ferry::scan {

Effort file_effort(const std::vector<const ApiUse*>& uses, std::string_view target, bool parsed_source) {
  Effort e;
  std::set<std::string> seen;
  bool hard = false;
  bool any = false;
  for (const ApiUse* u : uses) {
    const auto it = u->status.find(std::string(target));
    if (it == u->status.end()) continue;
    any = true;
    const std::string& st = it->second;
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
  if (any && parsed_source) e.hours += 0.1;  // build, compile and test the ported file
  if (!any) return e;
  e.level = e.hours >= 8 ? "high" : (hard || e.hours >= 2) ? "medium" : "low";
  return e;
}

std::string overall_level(double hours) {
  if (hours <= 0) return "none";
  return hours < 16 ? "low" : hours < 80 ? "medium" : "high";
}

namespace {

// Hours for one diagnostic the migration left (docs/scan.md, "Effort model"); `first`: the first
// time this code with this message appears in the file.
double left_weight(int code, bool first) {
  switch (code) {
    case 1001: return first ? 2.0 : 0.25;  // no equivalent: a person writes the replacement
    case 1002: return 0.1;                 // deprecated: migrated, check the replacement
    case 1003: return 4.0;                 // inline assembly: rewrite for the target ISA
    case 1301: return first ? 0.5 : 0.1;   // the chosen HIP release lacks it: newer release or fallback
    case 1601: return 4.0;                 // kernel not translated (Ascend C skeleton): port by hand
    default: break;
  }
  switch (code / 1000) {
    case 1: return first ? 1.0 : 0.25;  // other partial or missing translations
    case 2:                             // wave64 / warp hazard: review the site (and its fix)
    case 3: return 0.5;                 // resource limit of the target
    case 4: return first ? 0.5 : 0.1;   // changed semantics: check the call
    default: return 0.25;
  }
}

}  // namespace

double build_effort(const std::vector<Diagnostic>& left) {
  double h = 0.5;  // configure and build the converted file once
  std::set<std::pair<int, std::string>> seen;
  for (const Diagnostic& d : left) {
    const int code = static_cast<int>(d.code);
    const bool first = seen.insert({code, d.message}).second;
    h += code == 5004 ? (first ? 1.0 : 0.25) : 0.1;  // left for review; a dropped flag, ...
  }
  return h;
}

Effort migrated_effort(const std::vector<const ApiUse*>& uses, const std::vector<Diagnostic>& left,
                       std::string_view target) {
  Effort e;
  bool hard = false;
  std::set<std::pair<int, std::string>> seen;  // (code, message): the same problem again is cheap
  for (const Diagnostic& d : left) {
    const int code = static_cast<int>(d.code);
    const bool first = seen.insert({code, d.message}).second;
    e.hours += left_weight(code, first);
    hard = hard || code == 1001 || code == 1003 || code == 1601;
  }
  std::set<std::string> unknown;
  bool any = !left.empty();
  for (const ApiUse* u : uses) {
    const auto it = u->status.find(std::string(target));
    if (it == u->status.end()) continue;
    any = true;
    // A call of a CUDA-looking name no table knows: the migration leaves it as it is, and it
    // may be an API the tables miss. Other unknown names are nearly always the user's
    // variables (cudaResult, cuDevice, cublasHandle: the top ones in NVIDIA's cuda-samples),
    // which need nothing.
    if (it->second == "unknown" && u->kind == "function") e.hours += unknown.insert(u->name).second ? 0.5 : 0.05;
  }
  if (!any) return e;
  e.hours += 0.1;  // build, compile and test the ported file
  e.level = e.hours >= 8 ? "high" : (hard || e.hours >= 2) ? "medium" : "low";
  return e;
}

}  // namespace ferry::scan
