// FRY2201 FRY2202 FRY2203: lane ids, warp indices and lane bits computed for 32 lanes.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <cstdint>

#include "analysis/const_eval.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

void check_lane_arithmetic(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  // Every hazard here needs a thread- or lane-derived operand: none without a taint source.
  if (!has_taint_source(v)) return;
  const std::uint64_t kAnd = lex::short_key("&"), kMod = lex::short_key("%"), kDiv = lex::short_key("/"),
                      kShr = lex::short_key(">>"), kShl = lex::short_key("<<");
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
      // Most tokens are no such operator: passed on their keys alone.
      const std::uint64_t k = v.key(i);
      if (!(k == kAnd || k == kMod || k == kDiv || k == kShr || k == kShl) || !ends_operand(v, i - 1)) continue;
      const std::string_view s = v.text(i);
      if (s == "<<") {
        // FRY2203: 1 << lane with a 32-bit literal 1
        if (!v.is_number(i - 1) || parse_int(v.text(i - 1)) != 1 || !lex::is_32bit_literal(v.text(i - 1))) continue;
        if (is_one_of(v.text(i - 2), {".", "*", "/", "%", "->"})) continue;
        const std::size_t rl = primary_last(v, i + 1);
        if (rl == npos) continue;
        const unsigned t = range_taint(v, facts, facts.functions[fi].defs, i + 1, rl);
        if (!(t & (kThread | kLane))) continue;
        report(file, opt, Diag::LaneBit32, i - 1,
               "'" + std::string(v.text(i - 1)) + " << " + std::string(file.span_text(i + 1, rl)) +
                   "' builds a lane bit in a 32-bit integer; " + prof_why(p) + ", and shifting by 32..63 is undefined",
               "use a 64-bit mask: 1ull << " + std::string(file.span_text(i + 1, rl)) +
                   " (and uint64_t / unsigned long long for every mask that holds it)");
        continue;
      }
      const std::size_t r = i + 1;
      if (!v.is_number(r)) continue;
      const auto val = parse_int(v.text(r));
      const bool lane_op = (s == "&" && val == 31) || (s == "%" && val == 32);
      const bool warp_op = (s == ">>" && val == 5) || (s == "/" && val == 32);
      if (!lane_op && !warp_op) continue;
      // the literal must be the whole right operand
      const std::string_view after = v.text(r + 1);
      if (is_one_of(after, {"(", "[", ".", "->"})) continue;
      if (s == "&" && lex::binary_precedence(after) > lex::binary_precedence("&")) continue;
      if (s == ">>" && lex::binary_precedence(after) > lex::binary_precedence(">>")) continue;
      const std::size_t lf = left_operand_first(v, i, fn.body_open + 1);
      if (lf >= i) continue;
      const unsigned t = range_taint(v, facts, facts.functions[fi].defs, lf, i - 1);
      if (!(t & kThread)) continue;
      const std::string lhs(file.span_text(lf, i - 1));
      const std::string expr = lhs + " " + std::string(s) + " " + std::string(v.text(r));
      const bool count = lhs.find("blockDim") != std::string::npos;
      if (lane_op) {
        report(file, opt, Diag::LaneId32, i,
               "'" + expr + "' computes a lane id for 32-lane warps; " + prof_why(p) + ", so lanes 32.." +
                   std::to_string(p.wave_size - 1) + " get the ids of lanes 0..31",
               "use " + lhs + " % warpSize (or " + lhs + " & (warpSize - 1); __lane_id() in HIP)");
      } else {
        report(file, opt, Diag::WarpIndex32, i,
               "'" + expr + "' computes a " + (count ? "warp count" : "warp index") + " for 32-lane warps; " +
                   prof_why(p) + ", so it is twice what the wavefront " + (count ? "count" : "index") + " is",
               "use " + lhs + " / warpSize");
      }
    }
  }
}

}  // namespace ferry::analysis
