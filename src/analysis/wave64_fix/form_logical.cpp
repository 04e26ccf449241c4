// The logical 32-lane form: each half of a wavefront is one CUDA warp.
#include "analysis/wave64_fix/planner.h"

#include "analysis/coop_groups.h"
#include "analysis/tokens.h"

namespace ferry::analysis::wave64_plan {

std::set<std::size_t> Planner::reach_of(const std::vector<std::size_t>& ids) const {
  std::set<std::size_t> reach(ids.begin(), ids.end());
  for (std::vector<std::size_t> todo(ids.begin(), ids.end()); !todo.empty();) {
    const std::size_t id = todo.back();
    todo.pop_back();
    for (std::size_t c : callees_[id])
      if (reach.insert(c).second) todo.push_back(c);
  }
  return reach;
}

std::string Planner::inline_asm_reason(const std::set<std::size_t>& reach) const {
  for (std::size_t id : reach) {
    const Fn& fn = fns_[id];
    if (!fn.device) continue;
    const FunctionInfo& fi = info(fn);
    const Tokens v = tok(fn.file);
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i)
      if (v.ident(i) && (is_one_of(v.t(i), {"asm", "__asm__", "__asm"}) || asm_macros_.count(v.t(i))))
        return "inline assembly sees the physical wavefront (" + in_[fn.file].key + ", '" + fi.name + "')";
  }
  return {};
}

// Logical 32-lane warps (the second sound form, docs/wave64-fixes.md): the component keeps every
// 32-lane assumption (lane = t % 32, warp = t / 32, blockDim / 32 slots, reductions from 16), and
// each half of a 64-lane wavefront acts as one CUDA warp. A wavefront is cut from the block's
// linear thread ids in 64s, so its halves are exactly the 32-thread warps CUDA cuts, whatever the
// block's shape or size: nothing depends on the launches. What must change is what sees the whole
// wavefront: every shuffle gets the width 32 (and an index shuffle's source is taken modulo the
// width, as in CUDA), a ballot or __activemask takes its own half (`>> (__lane_id() & 32)`, then
// 32 bits), __any/__all become ballots of the half, and warpSize becomes CUDA's 32. Inline
// assembly, __lane_id, match/reduce intrinsics, coalesced groups, tile votes and warp operations
// hidden in macros see the wavefront in ways the fixer cannot confine: any of them, and it is not
// a logical component. The cost is performance, not correctness: lanes 32-63 do no cross-lane
// work together with lanes 0-31.
std::string Planner::logical_mode(const std::vector<std::size_t>& ids, const std::vector<bool>& lane_ctx,
                                  std::vector<Site>& edits) const {
  const std::string half(options_.cuda_output ? kCudaHalf : kHipHalf);
  // Inline assembly anywhere in reach (helpers without warp operations included: a PTX mma or
  // ldmatrix is a warp-wide instruction) is code the port cannot carry.
  if (std::string why = inline_asm_reason(reach_of(ids)); !why.empty()) return why;
  // The functions' bodies, and those of the macros named like warp intrinsics they call (once each).
  std::set<std::string> macros_seen;
  std::vector<Range> ranges = body_ranges(ids, lane_ctx);
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const Range range = ranges[r];
    const Tokens v = tok(range.file);
    const std::string at =
        " (" + in_[range.file].key + ", " + (range.scope ? "'" + range.scope->name + "'" : "a macro body") + ")";
    std::set<std::size_t> own;  // tokens of the logical form this fixer wrote before: as they are
    for (std::size_t i = range.first; i < range.end; ++i) {
      if (!v.ident(i) || own.count(i)) continue;
      const std::string_view s = v.t(i);
      if (v.member(i)) {
        if (is_one_of(s, {"ballot", "any", "all", "match_any", "match_all"}) && v.is(i + 1, "("))
          return "the tile vote '." + std::string(s) + "()' sees the wavefront" + at;
        continue;
      }
      if (is_one_of(s, {"asm", "__asm__", "__asm"})) return "inline assembly sees the physical wavefront" + at;
      // What the warp-intrinsics pass writes for __syncwarp(): a wave barrier (and its fences)
      // syncs both halves, which is more than a logical warp needs and never wrong.
      if (is_one_of(s, {"__builtin_amdgcn_wave_barrier", "__builtin_amdgcn_fence"})) continue;
      if (is_one_of(s, {"__ballot", "__ballot_sync", "__activemask"})) {
        // A ballot already taken to its half (a second migration of this fixer's output)
        if (const std::size_t e = ballot_half_end(v, i, half); e != npos) {
          for (std::size_t q = v.partner(i + 1) + 2; q < e; ++q) own.insert(q);
          Site site{Diag::BallotResult32, false, range.file, v.at(i), {}};
          if (v.is(i - 6, "=") && v.ident(i - 7)) site.widened_var = v.at(i - 7);  // its FRY2102 is moot
          edits.push_back(std::move(site));
          continue;
        }
      }
      if (is_one_of(s, {"__lane_id", "coalesced_threads", "__uni_sync"}) || s.starts_with("__builtin_amdgcn_") ||
          s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync")))
        return "'" + std::string(s) + "' sees the wavefront in a way the fixer cannot confine to a half" + at;
      if (asm_macros_.count(s))
        return "inline assembly sees the physical wavefront (in the macro '" + std::string(s) + "')" + at;
      if (warp_macros_.count(s)) return "a warp operation inside the macro '" + std::string(s) + "'" + at;
      if (std::string why; is_warp_op(s) && through_macro(s, macros_seen, ranges, why)) {
        if (!why.empty()) return why;
        continue;  // its arguments may hold more
      }
      const bool edit_here = s == "warpSize" || is_warp_op(s);
      if (edit_here && v.f.excluded(i)) return "a line to change is excluded from rewriting" + at;
      if (s == "warpSize") {
        // CUDA's 32, recorded so that the way back writes the warpSize the code had
        edits.push_back(
            {Diag::WarpWidthConstant, false, range.file, v.at(i), {replace_token(v, i, std::string(kWarpSize32))}});
        continue;
      }
      if (is_one_of(s, {"__popc", "__ffs", "__clz", "__brev"}) && v.is(i + 1, "(")) {
        // of a mask that is now the half's 32 bits: its FRY2103 is moot
        Site bit{Diag::BallotPopc32, false, range.file, v.at(i), {}};
        bit.widened_call = v.at(i);
        edits.push_back(std::move(bit));
        continue;
      }
      if (!is_warp_op(s) || is_one_of(s, {"__syncwarp"})) continue;
      if (!v.is(i + 1, "(") || v.partner(i + 1) == npos) return "'" + std::string(s) + "' is not called" + at;
      const std::size_t close = v.partner(i + 1);
      if (v.f.excluded(close)) return "a line to change is excluded from rewriting" + at;
      const auto args = v.f.call_args(i + 1);
      for (const migrate::ArgRange& a : args)
        if (a.empty()) return "an empty argument of '" + std::string(s) + "'" + at;
      const bool sync = s.ends_with("_sync");
      if (sync && args.empty()) return "'" + std::string(s) + "' without a mask" + at;
      Site site{Diag::ShuffleLoop32, false, range.file, v.at(i), {}};
      if (s.starts_with("__shfl")) {
        const std::size_t src_at = sync ? 2 : 1, width_at = sync ? 3 : 2;
        if (args.size() < src_at + 1 || args.size() > width_at + 1)
          return "'" + std::string(s) + "' with " + std::to_string(args.size()) + " arguments" + at;
        // The width: CUDA allows at most 32, so one written stays in its half (a warpSize in it
        // becomes 32 with every other); none means the wavefront in HIP: 32.
        std::string width = "32";
        if (args.size() == width_at + 1) {
          const migrate::ArgRange& w = args[width_at];
          width.clear();
          for (std::size_t q = w.first; q <= w.last; ++q)
            width += (q > w.first && v.at(q) > v.end(q - 1) ? " " : "") +
                     std::string(v.is(q, "warpSize") && !v.member(q) ? "32" : v.t(q));
        } else {
          site.edits.push_back({v.at(close), v.at(close), std::string(kAddedWidth)});
        }
        if (s == "__shfl" || s == "__shfl_sync") {
          // HIP adds the source to the segment's first lane without taking it modulo the width
          const migrate::ArgRange& src = args[src_at];
          const auto n = eval_constant(v.f, v.facts, src.first, src.last, range.scope);
          const auto wn = width == "32" ? std::optional<long long>(32) : std::nullopt;
          std::size_t a = src.first, b = src.last;
          while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
          const bool modulo =
              wn && b > a && v.number(b) &&
              ((v.is(b - 1, "&") && parse_int(v.t(b)) == *wn - 1) || (v.is(b - 1, "%") && parse_int(v.t(b)) == *wn));
          if (!modulo && !(n && wn && *n >= 0 && *n < *wn)) {
            site.edits.push_back({v.at(src.first), v.at(src.first), "(("});
            site.edits.push_back({v.end(src.last), v.end(src.last),
                                  width == "32" ? std::string(") & 31)") : ") & ((" + width + ") - 1))"});
          }
        }
        if (!site.edits.empty()) edits.push_back(std::move(site));
        if (sync) i = args[0].last;  // the mask is the warp-intrinsics pass's; the rest may nest
        continue;
      }
      const auto full_mask = [&](const migrate::ArgRange& m) {
        if (v.is(m.first, "__activemask") && v.is(m.first + 1, "(") && v.partner(m.first + 1) == m.last) return true;
        const auto n = eval_constant(v.f, v.facts, m.first, m.last, range.scope);
        return n && (*n == 0xffffffffLL || *n == -1);
      };
      if (is_one_of(s, {"__ballot_sync", "__ballot", "__activemask"})) {
        // the half's 32 bits (the call itself stays for the warp-intrinsics pass)
        site.code = Diag::BallotResult32;
        if (v.is(i - 1, "=") && v.ident(i - 2)) site.widened_var = v.at(i - 2);  // its FRY2102 is moot
        site.edits.push_back({v.at(i), v.at(i), "((unsigned)("});
        site.edits.push_back({v.end(close), v.end(close), " >> " + half + "))"});
        edits.push_back(std::move(site));
        if (sync) i = args[0].last;  // the mask is the warp-intrinsics pass's; the rest may nest
        continue;
      }
      if (is_one_of(s, {"__any_sync", "__all_sync", "__any", "__all"})) {
        // a vote of the half: a ballot of it, for all of the predicate's negation
        const std::size_t pred_at = sync ? 1 : 0;
        if (args.size() != pred_at + 1) return "'" + std::string(s) + "' with other arguments" + at;
        // A mask HIP cannot take is dropped with a record of it (`__any(/* ferry-cuda:
        // __any_sync(0xffff0000, */ p)`): a second migration sees the mask the first one saw.
        if ((sync && !full_mask(args[0])) || (!sync && recorded(v, i + 1)))
          return "'" + std::string(s) + "' with a mask other than the full mask (HIP drops it)" + at;
        const bool all = s.starts_with("__all");
        const std::string head = std::string("(0u ") + (all ? "==" : "!=") + " (unsigned)(";
        const migrate::ArgRange& p = args[pred_at];
        if (options_.cuda_output) {
          site.edits.push_back(replace_token(v, i, head + (sync ? "__ballot_sync" : "__ballot")));
        } else {
          site.edits.push_back({v.at(i), v.at(p.first), head + "__ballot("});  // HIP: no mask
        }
        if (all) {
          site.edits.push_back({v.at(p.first), v.at(p.first), "!("});
          site.edits.push_back({v.end(p.last), v.end(p.last), ")"});
        }
        site.edits.push_back({v.end(close), v.end(close), " >> " + half + "))"});
        edits.push_back(std::move(site));
        if (sync) i = args[0].last;  // the mask is the warp-intrinsics pass's; the rest may nest
        continue;
      }
      return "'" + std::string(s) + "' sees the wavefront in a way the fixer cannot confine to a half" + at;
    }
  }
  return {};
}

}  // namespace ferry::analysis::wave64_plan
