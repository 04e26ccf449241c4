// Form (a) of WMMA components: one CUDA warp per 64-lane wavefront, the block doubled in x.
#include "analysis/wave64_fix/planner.h"

#include <algorithm>
#include <functional>

#include "analysis/coop_groups.h"
#include "analysis/tokens.h"

namespace ferry::analysis::wave64_plan {

// Form (a) of WMMA components (docs/wave64.md, "WMMA"): a 64-lane wavefront does one CUDA warp's
// work. Every launch of the component's kernels gets twice the threads in x; a warp index
// (`threadIdx.x / 32`, `(blockIdx.x * blockDim.x + threadIdx.x) / 32`, `blockDim.x / 32`) then
// counts 64 threads, so a block still computes the tiles of its original number of warps, and
// a lane stays `threadIdx.x % 32`: lanes 32-63 clone lanes 0-31 (the same loads, the same stores of
// the same values), and every lane of a wavefront passes the same fragment and pointer. Sound when
// (1) every threadIdx.x and blockDim.x of the device code is such a warp index or lane, (2) nothing
// lets a clone count twice (atomics, cross-lane operations, block-wide counts, thread ranks,
// printf), (3) every launch is visible, whole CUDA warps in x, and at most 1024 threads doubled.
// Every 32 of the code keeps its CUDA meaning (WARP_SIZE-sized per-lane copies included), so the
// only edits are the warp indices' divisors and the launches' block arguments, both recorded for
// the way back.
std::string Planner::wmma_mode(const std::vector<std::size_t>& ids, const std::set<std::size_t>& kernels,
                               std::vector<Site>& edits) const {
  // The clones repeat lanes 0-31 exactly because they are lanes of the same wavefront, in lock
  // step: on 32-lane warps (NVIDIA, the CUDA output of `analyze --fix`) they would be other warps.
  if (options_.cuda_output)
    return "CUDA output would run the clones as separate 32-lane warps ('ferry migrate --to hip' applies it)";
  if (profile_.wave_size != 64) return "the target's wavefront is not 64 lanes";
  const std::set<std::size_t> reach = reach_of(ids);
  // Inline assembly first: code the port cannot carry at all (cp.async, PTX mma) is the reason.
  if (std::string why = inline_asm_reason(reach); !why.empty()) return why;
  // (1) and (2): the device code
  for (std::size_t id : reach) {
    const Fn& fn = fns_[id];
    if (!fn.device) continue;
    const FunctionInfo& fi = info(fn);
    const Tokens v = tok(fn.file);
    const std::string at = " (" + in_[fn.file].key + ", '" + fi.name + "')";
    if (fi.is_kernel && fi.launch_bounds_ci != npos)
      return "'__launch_bounds__' of '" + fi.name + "' would not admit the doubled block";
    std::set<std::size_t> done;  // thread-id tokens of recognised warp indices and lanes
    bool cuda_wmma = false;
    for (std::size_t q = 0; q < v.size() && !cuda_wmma; ++q) cuda_wmma = v.is(q, "nvcuda");
    // `OP D` after a warp index: D must be 32 (or this form's own `64 /* ferry-cuda: D */`)
    // Sets `last` to the divisor's last token.
    std::size_t last = npos;
    const auto divisor = [&](std::size_t op, std::string& why) -> bool {
      const std::size_t d = op + 1;
      last = detail::primary_last(v.f, d);
      if (last == npos || last >= fi.body_close) return why = "a warp index Ferry cannot read" + at, false;
      const bool shift = v.is(op, ">>");
      if (d == last && v.is(d, shift ? "6" : "64") && recorded(v, d)) return true;  // doubled already
      // CUDA's warpSize is 32 (a CUDA source: it names nvcuda; in HIP code warpSize is the wavefront)
      const auto n = d == last && v.is(d, "warpSize") && cuda_wmma ? std::optional<long long>(32)
                                                                   : eval_constant(v.f, v.facts, d, last, &fi);
      if (!n || *n != (shift ? 5 : 32)) return why = "a thread id divided by something other than 32" + at, false;
      const std::string text(v.f.source().substr(v.at(d), v.end(last) - v.at(d)));
      if (text.find("*/") != std::string::npos || text.find('\n') != std::string::npos)
        return why = "a warp index Ferry cannot record" + at, false;
      for (std::size_t q = d; q <= last; ++q)
        if (v.f.excluded(q)) return why = "a line to change is excluded from rewriting" + at, false;
      edits.push_back({Diag::WarpIndex32,
                       false,
                       fn.file,
                       v.at(d),
                       {{v.at(d), v.end(last), std::string(shift ? "6" : "64") + " " + rewrite::record::make(text)}}});
      return true;
    };
    // the token before a thread id must not bind it tighter than the operator after it
    const auto loose_before = [&](std::size_t p, bool additive_ok) {
      if (is_one_of(v.t(p), {"*", "/", "%", ".", "->", "::", "~", "!", "++", "--", ")", "]", "&"})) return false;
      if (v.ident(p) && !is_one_of(v.t(p), {"return", "case"})) return false;
      return additive_ok || !is_one_of(v.t(p), {"+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!="});
    };
    const auto loose_after = [&](std::size_t p) {
      return is_one_of(v.t(p),
                       {")", ";", ",", "]", "}", "?", ":", "&&", "||", "==", "!=", "<", ">", "<=", ">=", "|", "^"});
    };
    const auto is_dim = [&](std::size_t q, std::string_view var) {
      return v.is(q, var) && !v.member(q) && v.is(q + 1, ".") && v.is(q + 2, "x");
    };
    // Cooperative groups (dmmaTensorCoreGemm): `auto cta = cg::this_thread_block();` and tiles of
    // at most 32 threads of it, `auto t = cg::tiled_partition<32>(cta);`. A tile never crosses a
    // CUDA warp, so the clones (lanes 32-63) form tiles of their own with their originals' ranks,
    // sizes, shuffles and copies; the block group is only waited on or synchronised, which the
    // doubled block does alike. Anything else of the block (its ranks and sizes, other uses of the
    // name) and a tile's meta_group_rank (it counts the doubled block's tiles) stay refused below.
    std::set<std::string_view> block_groups, tiles;
    std::set<std::size_t> group_ok;  // tokens of those declarations
    // An upper bound of a tile size [a, b]: its value, or for `P / Q` P's bound (Q < 1 does not
    // compile: a division by zero or a negative size), or a local `constexpr` name's initializer's
    // (dmma: `constexpr int n = WARP_SIZE / CHUNK_COPY_LINES_PER_WARP;`, whose divisor has two
    // definitions under #if).
    std::function<std::optional<long long>(std::size_t, std::size_t, int)> tile_bound;
    tile_bound = [&](std::size_t a, std::size_t b, int depth) -> std::optional<long long> {
      if (depth > 4 || a > b) return std::nullopt;
      if (const auto n = eval_constant(v.f, v.facts, a, b, &fi)) return n;
      while (v.is(a, "(") && v.partner(a) == b && b > a + 1) ++a, --b;
      for (std::size_t q = a; q <= b; ++q) {
        // `P / Q` with Q one name, number or parenthesised group (not `P / Q * R`)
        if (v.is(q, "/") && q > a)
          return q + 1 == b || (v.is(q + 1, "(") && v.partner(q + 1) == b) ? tile_bound(a, q - 1, depth + 1)
                                                                           : std::nullopt;
        if (!(v.ident(q) || v.number(q) || v.is(q, "::"))) break;  // a name or a number, then `/`
      }
      if (a != b || !v.ident(a)) return std::nullopt;
      // `constexpr <type words> NAME = init;` in the body, before the use
      for (std::size_t d = fi.body_open + 1; d + 1 < a; ++d) {
        if (!v.is(d, "constexpr")) continue;
        std::size_t e = d + 1;
        while (e < a && v.ident(e) && !v.is(e, v.t(a))) ++e;
        if (!v.is(e, v.t(a)) || !v.is(e + 1, "=")) continue;
        std::size_t end = e + 2;
        while (end < a && !v.is(end, ";")) ++end;
        if (!v.is(end, ";") || end == e + 2) continue;
        return tile_bound(e + 2, end - 1, depth + 1);
      }
      return std::nullopt;
    };
    for (std::size_t i = fi.body_open + 1; i + 2 < fi.body_close; ++i) {
      if (!v.ident(i) || v.member(i) || !v.is(i + 1, "=")) continue;
      if (const std::size_t j = this_thread_block_at(v.f, i + 2); j != npos) {
        block_groups.insert(v.t(i));
        group_ok.insert(i);
        group_ok.insert(j);
        continue;
      }
      const auto tp = tiled_partition_at(v.f, i + 2, fi.body_close);
      if (!tp) continue;
      const auto n = tile_bound(tp->size_first, tp->size_last, 0);
      if (!n || *n < 1 || *n > 32) continue;
      // of a block group by name, or of `cg::this_thread_block()` itself
      const std::size_t a = tp->open + 1;
      const std::size_t b = this_thread_block_at(v.f, a);
      const bool of_block =
          (tp->close == a + 1 && v.ident(a) && block_groups.count(v.t(a))) || (b != npos && tp->close == b + 3);
      if (!of_block) continue;
      tiles.insert(v.t(i));
      group_ok.insert(i);
      group_ok.insert(tp->fn);
      group_ok.insert(a);
      if (b != npos) group_ok.insert(b);
    }
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
      if (!v.ident(i) || done.count(i) || group_ok.count(i)) continue;
      const std::string_view s = v.t(i);
      if (v.member(i) && v.is(i - 1, ".") && v.ident(i - 2) && v.is(i + 1, "(")) {
        const std::string_view obj = v.t(i - 2);
        if (tiles.count(obj) &&
            (is_tile_warp_member(s) || is_one_of(s, {"thread_rank", "size", "num_threads", "sync"})))
          continue;
        if (block_groups.count(obj) && s == "sync") continue;
      }
      if (block_groups.count(s) && !v.member(i)) {
        // `cg::wait(cta)`, `cg::sync(cta)`, `cg::wait_prior<N>(cta)`: a whole argument
        const std::size_t open = i - 1;
        std::size_t f = open == 0 ? npos : open - 1;
        if (f != npos && v.is(f, ">")) {  // wait_prior<N>
          while (f > fi.body_open && !v.is(f, "<")) --f;
          f = f > fi.body_open ? f - 1 : npos;
        }
        if (v.is(open, "(") && v.is(i + 1, ")") && f != npos &&
            (v.is(f, "wait") || v.is(f, "sync") || v.is(f, "wait_prior")) && !v.member(f))
          continue;
        if (v.is(i + 1, ".") && v.is(i + 2, "sync")) continue;  // checked as a member above
        return "the block group '" + std::string(s) + "' is used other than waited on or synchronised" + at;
      }
      if (v.member(i)) {
        if (is_tile_warp_member(s) && v.is(i + 1, "("))
          return "the cross-lane call '." + std::string(s) + "()' would see the clone lanes" + at;
        if (is_one_of(s, {"thread_rank", "meta_group_rank", "meta_group_size", "num_threads", "size"}) &&
            v.is(i + 1, "("))
          return "'." + std::string(s) + "()' counts the doubled block's threads" + at;
        continue;
      }
      if (is_one_of(s, {"asm", "__asm__", "__asm"}) || asm_macros_.count(s))
        return "inline assembly sees the physical wavefront" + at;
      if (s.starts_with("atomic") || s.starts_with("__atomic") || s.starts_with("__hip_atomic"))
        return "'" + std::string(s) + "': a clone lane would apply it twice" + at;
      if (s == "printf") return "'printf': a clone lane would print twice" + at;
      if (s.starts_with("__syncthreads_") ||
          is_one_of(s, {"this_thread_block", "tiled_partition", "this_grid", "coalesced_threads", "thread_rank"}))
        return "'" + std::string(s) + "' counts the doubled block's threads" + at;
      if (is_warp_op(s) && !is_one_of(s, {"__syncwarp", "__builtin_amdgcn_wave_barrier"}))
        return "the cross-lane operation '" + std::string(s) + "' would see the clone lanes" + at;
      if (s == "warpSize") {
        // CUDA's 32 (a stride of a lane loop, a count): every 32 keeps its CUDA meaning, recorded
        // so that the way back writes warpSize. In HIP code it is the wavefront: not this form.
        if (!cuda_wmma) return "'warpSize' in HIP code is the wavefront's 64" + at;
        if (v.f.excluded(i)) return "a line to change is excluded from rewriting" + at;
        edits.push_back(
            {Diag::WarpWidthConstant, false, fn.file, v.at(i), {replace_token(v, i, std::string(kWarpSize32))}});
        continue;
      }
      if (const auto mc = macro_calls_.find(s); mc != macro_calls_.end())
        for (const std::string_view callee : mc->second)
          if (!resolve_function(fn.file, callee).empty())
            return "the macro '" + std::string(s) + "' calls '" + std::string(callee) +
                   "', which the fixer does not follow" + at;
      if (clone_unsafe_macros_.count(s) || warp_macros_.count(s))
        return "the macro '" + std::string(s) + "' reads thread ids or works across lanes" + at;
      // (blockIdx.x * blockDim.x + threadIdx.x) / 32 and its orders: a warp index of the grid
      if (v.is(i - 1, "(") && v.partner(i - 1) == i + 11 && (s == "blockIdx" || s == "blockDim" || s == "threadIdx")) {
        const std::size_t o = i - 1;
        const bool prod_first = v.is(o + 4, "*") && v.is(o + 8, "+") &&
                                ((is_dim(o + 1, "blockIdx") && is_dim(o + 5, "blockDim")) ||
                                 (is_dim(o + 1, "blockDim") && is_dim(o + 5, "blockIdx"))) &&
                                is_dim(o + 9, "threadIdx");
        const bool tid_first = is_dim(o + 1, "threadIdx") && v.is(o + 4, "+") && v.is(o + 8, "*") &&
                               ((is_dim(o + 5, "blockIdx") && is_dim(o + 9, "blockDim")) ||
                                (is_dim(o + 5, "blockDim") && is_dim(o + 9, "blockIdx")));
        // not the argument list of a call (`f(...)`, `f<T>(...)`) or a cast
        if ((prod_first || tid_first) && v.is(o + 13, "/") && loose_before(o - 1, true) && !v.is(o - 1, ">")) {
          std::string why;
          if (!divisor(o + 13, why)) return why;
          for (std::size_t q = o + 1; q < o + 12; ++q) done.insert(q);
          i = last;
          continue;
        }
      }
      if (s == "threadIdx" || s == "blockDim") {
        if (!v.is(i + 1, ".")) return "'" + std::string(s) + "' used as a whole" + at;
        if (!v.is(i + 2, "x")) continue;  // y and z keep their meaning
        const std::size_t op = i + 3;
        std::string why;
        if (v.is(op, "/") && loose_before(i - 1, true)) {
          if (!divisor(op, why)) return why;
          i = last;
          continue;
        }
        if (s == "threadIdx" && v.is(op, ">>") && loose_before(i - 1, false)) {
          if (!divisor(op, why)) return why;
          if (!loose_after(last + 1)) return "a warp index Ferry cannot read" + at;
          i = last;
          continue;
        }
        if (s == "threadIdx" && v.is(op, "%") && loose_before(i - 1, true)) {
          const std::size_t last = detail::primary_last(v.f, op + 1);
          const auto n = last == npos ? std::nullopt : eval_constant(v.f, v.facts, op + 1, last, &fi);
          if (n == 32) {
            i = last;
            continue;  // a lane: stays
          }
        }
        if (s == "threadIdx" && v.is(op, "&") && loose_before(i - 1, false)) {
          const std::size_t last = detail::primary_last(v.f, op + 1);
          const auto n = last == npos ? std::nullopt : eval_constant(v.f, v.facts, op + 1, last, &fi);
          if (n == 31 && loose_after(last + 1)) {
            i = last;
            continue;
          }
        }
        return "'" + std::string(s) + ".x' at line " + std::to_string(v.line(i)) +
               " is neither a warp index nor a lane: with a doubled block, lanes 32-63 would not clone lanes "
               "0-31" +
               at;
      }
    }
  }
  // (3): the launches
  std::vector<Blocker> macro;
  scan_macro_launches(kernels, macro);
  if (!macro.empty()) return macro.front().reason;
  std::set<std::size_t> launched;
  for (std::size_t fid : launchers_of(kernels)) {
    const FunctionInfo& fi = info(fns_[fid]);
    const Tokens v = tok(fns_[fid].file);
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
      std::size_t k = npos, a = npos, b = npos;
      if (v.f.code(i).kind == lex::Kind::LaunchOpen) {
        k = launched_name(v, i, fi.body_open);
        if (k == npos) continue;
        const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
        if (args.size() >= 2) a = args[1].first, b = args[1].last;
      } else if (v.is(i, "hipLaunchKernelGGL") && v.is(i + 1, "(") && !v.member(i)) {
        k = i + 2;
        if (v.is(k, "HIP_KERNEL_NAME") && v.is(k + 1, "(")) k += 2;
        if (!v.ident(k)) continue;
        const auto args = v.f.call_args(i + 1);
        if (args.size() >= 3 && !args[2].empty()) a = args[2].first, b = args[2].last;
      } else {
        continue;
      }
      bool ours = false;
      for (std::size_t c : resolve_function(fns_[fid].file, v.t(k)))
        if (kernels.count(c)) ours = true, launched.insert(c);
      if (!ours) continue;
      const std::string where_launch = " (" + where(fns_[fid].file, v.line(i)) + ")";
      if (a == npos) return "a launch whose block argument Ferry cannot read" + where_launch;
      for (std::size_t q = a; q <= b; ++q)
        if (v.f.excluded(q)) return "a launch to change is excluded from rewriting" + where_launch;
      // this form's own doubled block (a second migration): the original is the record
      std::size_t oa = a, ob = b;
      bool own = false;
      if (const auto found = rewrite::record::after(v.f.tokens(), v.f.source(), v.f.token_index(b))) {
        const std::string_view rec = found->text;
        const std::string_view written = v.f.source().substr(v.at(a), v.end(b) - v.at(a));
        const std::vector<std::string> forms = wmma_doubled_block_forms(rec);
        if (written == forms[0]) own = true, oa = a + 3, ob = b - 1;
        else if (written == forms[1]) own = true, oa = ob = a + 4;
        else if (written == forms[2]) {
          // the original dim3(X, ...) is gone from the tokens: its extents are the doubled ones halved
          const BlockExtents d = block_extents(fid, a, b);
          if (!d.why.empty()) return "a launch's block: " + d.why + where_launch;
          for (long long x : d.x)
            if (x % 64 != 0) return "a doubled block Ferry cannot read" + where_launch;
          if (*d.x.rbegin() * d.yz > 1024) return "a launch's doubled block has more than 1024 threads" + where_launch;
          continue;
        }
      }
      const BlockExtents e = block_extents(fid, oa, ob);
      if (!e.why.empty()) return "a launch's block: " + e.why + where_launch;
      for (long long x : e.x)
        if (x <= 0 || x % 32 != 0)
          return "a launch's block is " + std::to_string(x) + " threads wide, not whole 32-thread warps" + where_launch;
      const long long doubled = 2 * *e.x.rbegin() * e.yz;
      if (doubled > 1024)
        return "a launch's doubled block would have " + std::to_string(doubled) + " threads, more than 1024" +
               where_launch;
      if (own) continue;
      const std::string text(v.f.source().substr(v.at(a), v.end(b) - v.at(a)));
      if (text.find("*/") != std::string::npos || text.find('\n') != std::string::npos)
        return "a launch's block argument Ferry cannot record" + where_launch;
      edits.push_back(
          {Diag::WarpIndex32,
           false,
           fns_[fid].file,
           v.at(a),
           {{v.at(a), v.end(b),
             wmma_doubled_block_forms(text)[static_cast<std::size_t>(e.form)] + " " + rewrite::record::make(text)}}});
    }
  }
  for (std::size_t k : kernels)
    if (info(fns_[k]).is_kernel && !launched.count(k))
      return "'" + info(fns_[k]).name + "' is not launched in the project: its block cannot be doubled";
  // Two edits of one token (a launch written twice through a macro?) could not both be applied.
  std::map<std::size_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> spans;
  for (const Site& site : edits)
    for (const Wave64ByteEdit& e : site.edits) spans[site.file].push_back({e.begin, e.end});
  for (auto& [file, list] : spans) {
    std::sort(list.begin(), list.end());
    for (std::size_t q = 1; q < list.size(); ++q)
      if (list[q].first < list[q - 1].second || list[q] == list[q - 1])
        return "two of its rewrites would overlap (" + in_[file].key + ")";
  }
  // A kernel named anywhere but in its launches and declarations may be launched through a pointer.
  for (std::size_t k : kernels) {
    const FunctionInfo& kfi = info(fns_[k]);
    if (!kfi.is_kernel) continue;
    for (std::size_t f = 0; f < in_.size(); ++f) {
      if (tu_rank(f, fns_[k].file) > 2 && tu_rank(fns_[k].file, f) > 2) continue;
      if (!mentions(f, kfi.name)) continue;  // without lexing it
      const Tokens v = tok(f);
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v.is(i, kfi.name) || v.member(i) || v.f.code(i).in_directive) continue;
        if (f == fns_[k].file && i == kfi.name_ci) continue;
        if (v.is(i - 1, "void")) continue;  // a declaration
        std::size_t n = i + 1;
        if (v.is(n, "<")) {  // template arguments
          int d = 0;
          for (; n < v.size(); ++n) {
            if (v.is(n, "<")) ++d;
            else if (v.is(n, ">") && --d == 0) break;
            else if (v.is(n, ";")) break;
          }
          ++n;
        }
        if (v.f.code(n).kind == lex::Kind::LaunchOpen) continue;
        if (v.is(i - 2, "hipLaunchKernelGGL") || (v.is(i - 2, "HIP_KERNEL_NAME") && v.is(i - 4, "hipLaunchKernelGGL")))
          continue;
        // cudaFuncSetAttribute(k, ...): the shared-memory limit, not a launch
        std::size_t c = i - 1;
        while (c > 0 && is_one_of(v.t(c), {"(", ")", "void", "const", "*", "<", ">"})) --c;
        if (is_one_of(v.t(c), {"cudaFuncSetAttribute", "hipFuncSetAttribute", "cudaFuncGetAttributes",
                               "hipFuncGetAttributes", "reinterpret_cast"}))
          continue;
        return "'" + kfi.name + "' is named outside its launches (" + where(f, v.line(i)) +
               "): it may be launched where its block cannot be doubled";
      }
    }
  }
  return {};
}

}  // namespace ferry::analysis::wave64_plan

namespace ferry::analysis {

std::vector<std::string> wmma_doubled_block_forms(std::string_view original) {
  const std::string o(original);
  // dim3(X, Y, Z) -> dim3(2 * (X), Y, Z): X ends at the first comma outside brackets
  std::string expr = "dim3(2 * dim3(" + o + ").x, dim3(" + o + ").y, dim3(" + o + ").z)";
  if (o.starts_with("dim3(") && o.ends_with(")")) {
    int depth = 0;
    std::size_t x_end = o.size() - 1;
    for (std::size_t i = 5; i + 1 < o.size(); ++i) {
      if (o[i] == '(' || o[i] == '[' || o[i] == '{') ++depth;
      else if (o[i] == ')' || o[i] == ']' || o[i] == '}') --depth;
      else if (o[i] == ',' && depth == 0) {
        x_end = i;
        break;
      }
    }
    expr = "dim3(2 * (" + o.substr(5, x_end - 5) + ")" + o.substr(x_end);
  }
  return {"2 * (" + o + ")", "dim3(2 * " + o + ".x, " + o + ".y, " + o + ".z)", expr};
}

}  // namespace ferry::analysis
