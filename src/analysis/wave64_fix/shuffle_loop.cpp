// Reduction loops around shuffles and unrolled butterfly steps (FRY2205 sites).
#include "analysis/wave64_fix/planner.h"

namespace ferry::analysis::wave64_plan {

// A width guard of an unrolled butterfly: `if (W >= 32) v += __shfl_down_sync(m, v, 16);` with `i`
// the guard's number 2k and W a value that is no lane or thread id (a template width, a
// constant). Returns the step's offset token k, or npos.
std::size_t guarded_shuffle_step(const Tokens& v, const FunctionInfo& fi, std::size_t sa, std::size_t sb,
                                 std::size_t i) {
  if (!v.is(sa, "if") || !v.is(sa + 1, "(") || v.partner(sa + 1) != i + 1 || i != sa + 4) return npos;
  if (!v.is(i - 1, ">=") || !v.ident(i - 2) || v.member(i - 2) || (taint_of(v, fi, i - 2, i - 2) & 3) != 0) return npos;
  const auto guard = parse_int(v.t(i));
  if (!guard || *guard % 2 != 0 || !v.is(sb + 1, ";")) return npos;
  for (std::size_t q = i + 2; q + 1 <= sb; ++q) {
    if (!v.ident(q) || !v.is(q + 1, "(") ||
        !is_one_of(v.t(q), {"__shfl_xor", "__shfl_xor_sync", "__shfl_down", "__shfl_down_sync"}))
      continue;
    const auto args = v.f.call_args(q + 1);
    const std::size_t lane_at = v.t(q).ends_with("_sync") ? 2 : 1;
    if (args.size() != lane_at + 1 || args[lane_at].first != args[lane_at].last) return npos;
    const std::size_t k = args[lane_at].first;
    const auto off = v.number(k) ? parse_int(v.t(k)) : std::nullopt;
    return off && *off * 2 == *guard ? k : npos;
  }
  return npos;
}

// `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o);` and the ascending form.
LoopInfo shuffle_loop(const Tokens& v, std::size_t ci, bool record) {
  LoopInfo L;
  const std::optional<detail::LaneLoop> loop = detail::lane_loop(v.f, ci);
  if (!loop) return L;
  const std::string_view var = loop->var;
  const bool halving = loop->halving;
  const std::size_t bound = loop->hit;  // a doubling loop's bound
  const std::size_t body_first = loop->body_first, body_last = loop->body_last;
  L.hit = loop->hit;
  L.halving = halving;
  bool shuffles = false;
  bool safe = true;
  std::vector<Wave64ByteEdit> width_edits;
  for (std::size_t i = body_first; i <= body_last && i < v.size(); ++i) {
    if (v.ident(i) && v.t(i).starts_with("__shfl") && v.is(i + 1, "(")) {
      shuffles = true;
      const std::string_view name = v.t(i);
      const bool sync = name.ends_with("_sync");
      const bool kind_ok = halving
                               ? is_one_of(name, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"})
                               : is_one_of(name, {"__shfl_up_sync", "__shfl_up", "__shfl_xor_sync", "__shfl_xor"});
      const auto args = v.f.call_args(i + 1);
      const std::size_t off_at = sync ? 2 : 1;
      if (!kind_ok || args.size() < off_at + 1 || args.size() > off_at + 2) {
        safe = false;
        L.why = "the loop calls " + std::string(name) + " in a form the fixer does not rewrite";
        i = v.partner(i + 1) == npos ? i : v.partner(i + 1);
        continue;
      }
      const migrate::ArgRange& off = args[off_at];
      if (off.first != off.last || v.t(off.first) != var) {
        safe = false;
        L.why = "the shuffle offset is not the loop variable alone";
      }
      for (std::size_t a = 0; halving && a < off_at; ++a)
        for (std::size_t j = args[a].first; j <= args[a].last; ++j)
          if (v.ident(j) && v.t(j) == var && !v.member(j)) {
            safe = false;
            L.why = "the loop variable is used outside the shuffles' offsets";
          }
      if (args.size() == off_at + 2) {  // an explicit width: fine only as the literal 32
        const migrate::ArgRange& w = args[off_at + 1];
        if (w.first == w.last && v.number(w.first) && parse_int(v.t(w.first)) == 32) {
          width_edits.push_back(recorded_token(v, w.first, "warpSize", record));
        } else {
          safe = false;
          L.why = "the shuffle has a width argument other than 32";
        }
      }
      i = v.partner(i + 1) == npos ? i : v.partner(i + 1);
      continue;
    }
    // In a reduction any other use of the offset (an index, a condition) would see the new first
    // value; a scan compares it with the lane id, which is right at any width.
    if (halving && v.ident(i) && v.t(i) == var && !v.member(i)) {
      safe = false;
      L.why = "the loop variable is used outside the shuffles' offsets";
    }
  }
  if (!shuffles) {
    L.hit = npos;
    return L;
  }
  L.safe = safe;
  if (!safe) return L;
  if (halving) {
    L.edits.push_back(recorded_token(v, L.hit, "warpSize / 2", record));
  } else {
    L.edits.push_back(recorded_token(v, bound, parse_int(v.t(bound)) == 32 ? "warpSize" : "warpSize / 2", record));
  }
  L.edits.insert(L.edits.end(), width_edits.begin(), width_edits.end());
  return L;
}

}  // namespace ferry::analysis::wave64_plan
