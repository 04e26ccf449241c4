// FRY2204: warp-width constants fixed at 32 (the planner's constant sites fix them).
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

namespace {

// Is the use of warp-width constant NAME at `ci` one that means "the width of a warp"?
// Allowed: a divisor or modulus (x / N, x % N, /=, %=), a multiplier (w * N, N * w), a lane
// stride (+= N, -= N), a lane bound (lane < N), half a warp (N / 2), a lane mask or round-up
// (& (N - 1), x + N - 1), the divisor of a ceil-div helper (CEIL_DIV(x, N)), the width argument
// of a shuffle, and the extent of an array (one slot per lane).
bool is_warp_width_use(const CodeView& v, std::size_t ci) {
  if (v.in_directive(ci)) return false;  // #if N == 32: a preprocessor decision, not a width
  std::size_t q = ci;                    // skip a qualification: ns::N
  while (q >= 2 && v.is(q - 1, "::") && v.is_identifier(q - 2)) q -= 2;
  if (q >= 1 && v.is(q - 1, "::")) --q;
  const std::string_view prev = q > 0 ? v.text(q - 1) : std::string_view();
  const std::string_view next = v.text(ci + 1);
  if (is_one_of(prev, {"/", "%", "/=", "%=", "+=", "-=", "*", "<", "<=", ">", ">="})) return true;
  if (is_one_of(next, {"/", "*"}) && !is_one_of(prev, {"<<", ">>"})) return true;
  if (next == "-" && v.is(ci + 2, "1") && is_one_of(prev, {"(", "+"})) return true;
  if (prev == "[" && next == "]") return true;
  // The default of a template parameter, `template <int kWarpSize = WARP_SIZE>`: the parameter is
  // the width (its own uses are checked where the template uses it).
  if (prev == "=" && (next == ">" || next == ",")) {
    int angle = 0;
    for (std::size_t k = q - 1; k > 0; --k) {
      if (v.is(k - 1, ">")) ++angle;
      else if (v.is(k - 1, "<")) {
        if (angle == 0) return k >= 2 && v.is(k - 2, "template");
        --angle;
      } else if (v.is(k - 1, ";") || v.is(k - 1, "{") || v.is(k - 1, "}") || v.is(k - 1, "(")) {
        return false;
      }
    }
    return false;
  }
  if (prev == "," && (next == ")" || next == ",")) {
    // the argument of a call: which call, which position?
    std::size_t open = ci;
    int depth = 0;
    while (open > 0) {
      --open;
      if (v.is(open, ")") || v.is(open, "]")) ++depth;
      else if (v.is(open, "(") || v.is(open, "[")) {
        if (depth == 0) break;
        --depth;
      }
    }
    if (!v.is(open, "(") || open == 0 || !v.is_identifier(open - 1)) return false;
    const std::string callee = lower(v.text(open - 1));
    if (callee.find("div") != std::string::npos) return true;  // CEIL_DIV(x, N), div_up(x, N)
    if (callee.rfind("__shfl", 0) == 0) return true;           // the width argument
  }
  return false;
}

}  // namespace

std::vector<std::string> warp_constant_names(const FileMigration& file, const FileFacts& facts) {
  (void)file;
  std::vector<std::string> out;
  for (const auto& [name, c] : facts.constants)
    if (c.value == 32 && is_warp_width_name(name)) out.push_back(name);
  return out;
}

void record_warp_constant_uses(const FileMigration& file, const FileFacts& /*facts: the uses are tokens*/,
                               WarpConstantUses& uses) {
  const CodeView& v = file;
  for (const std::size_t ci : identifiers_where(v, is_warp_width_name)) {
    const std::string name(v.text(ci));
    // the definition itself
    if (v.in_directive(ci) && ci >= 2 && v.is(ci - 1, "define")) continue;
    if (v.is(ci + 1, "=") && !v.is(ci + 2, "=")) continue;
    if (v.in_directive(ci) && ci >= 1 && is_one_of(v.text(ci - 1), {"ifdef", "ifndef", "undef"})) continue;
    if (v.in_directive(ci) && ci >= 2 && v.is(ci - 1, "(") && v.is(ci - 2, "defined")) continue;
    if (is_warp_width_use(v, ci)) continue;
    const std::string where = std::string(file.path()) + ":" + std::to_string(file.code(ci).line);
    if (uses.other_use.insert(name).second) uses.other_use_where[name] = where;
    uses.other_use_in[name].emplace(std::string(file.path()), where);
  }
}

void check_warp_constants(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const Profile& p = *opt.profile;
  const std::vector<std::string> names = warp_constant_names(file, facts);
  if (names.empty()) return;  // the uses only matter for the file's own warp-width constants
  WarpConstantUses local;
  const WarpConstantUses* uses = opt.warp_uses;
  if (!uses) {
    record_warp_constant_uses(file, facts, local);
    uses = &local;
  }
  for (const std::string& name : names) {
    const ConstantInfo& c = facts.constants.at(name);
    const bool safe = !uses->other_use.count(name);
    std::string hint;
    if (safe) {
      hint = "make it per target: #if defined(__HIP_PLATFORM_AMD__) / #define " + name + " " +
             std::to_string(p.wave_size) +
             " / #else ... 32 / #endif (in device-only code, warpSize); every use is a warp "
             "width, so 'ferry analyze --fix' can do it";
    } else if (opt.fixed_sites && opt.fixed_sites->count({Diag::WarpWidthConstant, file.code(c.name_ci).begin})) {
      // used otherwise, yet fixed: only the rows-of-32 fix (analysis/wave64_fix.h) leaves it as is
      hint =
          "keep 32: every kernel that uses it runs in rows of 32 threads (blocks 32 wide), whose "
          "shuffles get the width 32";
    } else {
      const auto w = uses->other_use_where.find(name);
      hint = "make it per target (" + std::to_string(p.wave_size) +
             " under __HIP_PLATFORM_AMD__, or warpSize in device code); not fixed automatically: '" + name +
             "' is also used as something other than a warp width" +
             (w != uses->other_use_where.end() ? " at " + w->second : std::string());
    }
    report(file, opt, Diag::WarpWidthConstant, c.name_ci,
           "'" + name + "' fixes the warp width at 32; " + prof_why(p) +
               ", so lane ids, warp indices and reductions derived from it are wrong",
           hint);
  }
}

}  // namespace ferry::analysis
