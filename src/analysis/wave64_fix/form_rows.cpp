// The rows-of-32 form (FRY2205 "row" fix).
#include "analysis/wave64_fix/planner.h"

#include "analysis/tokens.h"

namespace ferry::analysis::wave64_plan {

// Rows of 32 threads (FRY2205 "row" fix): every launch of the component's kernels has blocks
// exactly 32 threads wide (dim3(32, N): one CUDA warp per row). A 64-lane wavefront then holds
// two rows, and the code's 32-lane assumptions (lane = tx % 32, reductions from 16, one slot per
// row) are all right for its rows, provided no lane reads across the row boundary: every shuffle
// gets the width 32 (HIP's default is the wavefront), an index shuffle's source is taken modulo
// 32 as CUDA does, and nothing else crosses lanes. Ballots, votes, __activemask, __lane_id(),
// warpSize, wider or unknown shuffle widths and inline assembly see the whole wavefront: any of
// them in the component, or a launch whose block width is not known to be 32, and it is not a
// row component. Nothing else changes: the 32s stay, because the rows are 32 wide.
bool Planner::row_mode(const std::vector<std::size_t>& ids, const std::vector<bool>& lane_ctx,
                       const std::set<std::size_t>& kernels, std::vector<Site>& edits) const {
  // Every launch of every kernel, with a block x extent of exactly 32.
  std::set<std::size_t> launched;
  for (std::size_t fid : launchers_of(kernels)) {
    const FunctionInfo& fi = info(fns_[fid]);
    const Tokens v = tok(fns_[fid].file);
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
      if (v.f.code(i).kind != lex::Kind::LaunchOpen) continue;
      const std::size_t k = launched_name(v, i, fi.body_open);
      if (k == npos) continue;
      bool ours = false;
      for (std::size_t c : resolve_function(fns_[fid].file, v.t(k)))
        if (kernels.count(c)) ours = true, launched.insert(c);
      if (!ours) continue;
      const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
      if (args.size() < 2) return false;
      const Values vals = values(fid, args[1].first, args[1].last, 0);
      if (vals.unknown || vals.multiple || vals.known != std::set<long long>{32}) return false;
    }
  }
  for (std::size_t k : kernels)
    if (info(fns_[k]).is_kernel && !launched.count(k)) return false;
  std::vector<Blocker> macro;
  scan_macro_launches(kernels, macro);
  if (!macro.empty()) return false;
  // The cross-lane operations of the warp code, and of the bodies of the macros named like warp
  // intrinsics it calls (once each).
  std::set<std::string> macros_seen;
  std::vector<Range> ranges = body_ranges(ids, lane_ctx);
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    const Range range = ranges[r];
    const Tokens v = tok(range.file);
    for (std::size_t i = range.first; i < range.end; ++i) {
      if (!v.ident(i) || v.member(i)) continue;
      const std::string_view s = v.t(i);
      if (is_one_of(s, {"asm", "__asm__", "__asm", "warpSize", "__lane_id"})) return false;
      if (!is_warp_op(s)) continue;
      if (std::string why; through_macro(s, macros_seen, ranges, why)) {
        if (!why.empty()) return false;
        continue;  // its arguments may hold more
      }
      if (!s.starts_with("__shfl")) {
        if (is_one_of(s, {"__syncwarp", "__builtin_amdgcn_wave_barrier"})) continue;
        return false;  // ballots, votes, __activemask, match, reduce, bpermute
      }
      if (!v.is(i + 1, "(") || v.partner(i + 1) == npos) return false;
      const std::size_t close = v.partner(i + 1);
      if (v.f.excluded(i) || v.f.excluded(close)) return false;
      const auto args = v.f.call_args(i + 1);
      const bool sync = s.ends_with("_sync");
      const std::size_t src_at = sync ? 2 : 1, width_at = sync ? 3 : 2;
      if (args.size() < src_at + 1 || args.size() > width_at + 1) return false;
      for (const migrate::ArgRange& a : args)
        if (a.empty()) return false;
      Site site{Diag::ShuffleLoop32, false, range.file, v.at(i), {}};
      if (args.size() == width_at + 1) {
        const migrate::ArgRange& w = args[width_at];
        const auto n = eval_constant(v.f, v.facts, w.first, w.last, range.scope);
        if (!n || *n <= 0 || *n > 32 || (*n & (*n - 1)) != 0) return false;
      } else {
        site.edits.push_back({v.at(close), v.at(close), std::string(kAddedWidth)});
      }
      if (s == "__shfl" || s == "__shfl_sync") {
        const migrate::ArgRange& src = args[src_at];
        const auto n = eval_constant(v.f, v.facts, src.first, src.last, range.scope);
        // already taken modulo 32 (`(x) & 31`, `x % 32`, the form this fix writes): as it is
        std::size_t a = src.first, b = src.last;
        while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
        const bool modulo =
            b > a && v.number(b) &&
            ((v.is(b - 1, "&") && parse_int(v.t(b)) == 31) || (v.is(b - 1, "%") && parse_int(v.t(b)) == 32));
        if (!modulo && (!n || *n < 0 || *n >= 32)) {
          site.edits.push_back({v.at(src.first), v.at(src.first), "(("});
          site.edits.push_back({v.end(src.last), v.end(src.last), ") & 31)"});
        }
      }
      if (!site.edits.empty()) edits.push_back(std::move(site));
      i = close;
    }
  }
  return true;
}

}  // namespace ferry::analysis::wave64_plan
