// Lane masks kept in 32-bit integers: ballots, lane bits and the helpers returning them.
#include "analysis/wave64_fix/planner.h"

#include "analysis/const_eval.h"
#include "analysis/tokens.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/ptx_idioms.h"

namespace ferry::analysis::wave64_plan {
namespace {

// What the widening writes, each recorded for the way back (rewrite/roundtrip_record.h): the
// 64-bit bit function, `__popcll /* ferry-cuda: __popc */` (spelling form), and the 64-bit type
// of a mask, `unsigned long long /* ferry-cuda: unsigned int */` (type form), the recorded text
// being the integer words as the CUDA wrote them.
// Only HIP output is recorded (`record`): analyze --fix writes CUDA, which has no way back.
std::string widened_bit_call(std::string_view name, bool record) {
  return std::string(name) + "ll" + (record ? " " + rewrite::record::make(name) : std::string());
}
std::string widened_type(const Tokens& v, std::size_t a, std::size_t b, bool record) {
  const std::string_view words = v.f.source().substr(v.at(a), v.end(b) - v.at(a));
  if (!record || !rewrite::record::recordable(words)) return "unsigned long long";
  return "unsigned long long " + rewrite::record::make(words);
}

}  // namespace

// Lane masks (ballots, lane bits, helpers returning them) kept in 32-bit integers.
void Planner::scan_masks(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers) {
  const Fn& fn = fns_[fid];
  if (!warp_ctx) return;
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  const std::size_t lo = fi.body_open + 1, hi = fi.body_close;
  auto is_mask_source = [&](std::size_t q) {
    if (!v.ident(q) || v.member(q)) return false;
    const std::string_view s = v.t(q);
    if (is_one_of(s, {"__ballot_sync", "__ballot", "__ballot64", "__activemask"}) && v.is(q + 1, "(")) return true;
    if (mask_helpers_.count(std::string(s)) && v.is(q + 1, "(")) return true;
    return false;
  };
  // `1 << lane`: a lane bit only when the shift count is a lane or thread id.
  auto lane_bit_at = [&](std::size_t q) {
    if (!(v.is(q, "<<") && v.number(q - 1) && parse_int(v.t(q - 1)) == 1)) return false;
    const std::size_t rl = detail::primary_last(v.f, q + 1);
    return rl != npos && (taint_of(v, fi, q + 1, rl) & 3) != 0;
  };
  // Mask variables of the function, to a fixpoint over its definitions.
  std::set<std::string_view> masks;
  // `asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m))` defines m as a lane mask: the hip target
  // rewrites it into `m = (1ull << __lane_id()) - 1` (targets/hip/ptx_idioms.h), which is
  // what the output holds and what a second migration reads.
  for (std::size_t q = lo; q < hi; ++q) {
    const std::size_t open = targets::hip::asm_open(v.f, q);
    if (open == npos || v.partner(open) == npos) continue;
    const std::optional<targets::hip::PtxStatement> st = targets::hip::parse_asm(v.f, open, v.partner(open));
    if (!st || st->outputs.size() != 1) continue;
    const targets::hip::PtxVerdict verdict = targets::hip::rewrite_ptx(*st);
    if (!verdict.rewrite || !verdict.rewrite->idiom.starts_with("%lanemask_")) continue;
    const std::size_t var = open + 1 < v.partner(open) ? v.partner(open) - 2 : npos;  // `( m ) )`
    if (var != npos && v.ident(var) && v.is(var - 1, "(") && v.is(var + 1, ")") && v.t(var) == st->outputs[0].expr)
      masks.insert(v.t(var));
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const VarDef& d : fi.defs) {
      if (masks.count(d.name)) continue;
      bool m = false;
      for (std::size_t q = d.at + 1; q < hi && !v.is(q, ";"); ++q) {
        // a count of a mask (__popc(m & lt)) is a number, not a mask; neither is what a shuffle
        // or vote returns, whatever its mask argument
        const std::string_view tq = v.t(q);
        const bool counts = is_one_of(tq, {"__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll"});
        const bool other_warp_op =
            is_warp_op(tq) && !is_one_of(tq, {"__ballot_sync", "__ballot", "__ballot64", "__activemask"});
        if ((counts || other_warp_op) && v.is(q + 1, "(") && v.partner(q + 1) != npos) {
          q = v.partner(q + 1);
          continue;
        }
        if (is_mask_source(q) || lane_bit_at(q)) m = true;
        if (v.ident(q) && !v.member(q) && masks.count(v.t(q)) && !v.is(q + 1, "(")) m = true;
        if (v.is(q, "(") || v.is(q, "[")) {  // stay in this definition's expression
          if (v.partner(q) == npos) break;
        }
        if (v.is(q, ",") && !v.is(q - 1, ")")) {
          // a comma ends the definition only at depth 0; call arguments are inside brackets
        }
      }
      if (m) {
        masks.insert(d.name);
        changed = true;
      }
    }
  }
  bool returns_mask = false;
  for (std::size_t q = lo; q < hi; ++q) {
    if (!v.is(q, "return")) continue;
    for (std::size_t r = q + 1; r < hi && !v.is(r, ";"); ++r)
      if (is_mask_source(r) || lane_bit_at(r) || (v.ident(r) && masks.count(v.t(r)))) returns_mask = true;
  }
  if (masks.empty() && !returns_mask) {
    // __popc/__ffs of a ballot call written inline
    for (std::size_t q = lo; q < hi; ++q) {
      if (!(v.is(q, "__popc") || v.is(q, "__ffs")) || !v.is(q + 1, "(") || v.partner(q + 1) == npos) continue;
      bool mask_arg = false;
      for (std::size_t r = q + 2; r < v.partner(q + 1); ++r)
        if (is_mask_source(r) || lane_bit_at(r)) mask_arg = true;
      if (!mask_arg) continue;
      Site s{Diag::BallotPopc32,
             true,
             fn.file,
             v.at(q),
             {replace_token(v, q, widened_bit_call(v.t(q), !options_.cuda_output))}};
      s.widened_call = v.at(q);
      sites.push_back(std::move(s));
    }
    return;
  }
  // Widen each mask variable's declaration.
  for (const std::string_view name : masks) {
    std::vector<std::size_t> decls;  // every declaration of the name in the function (scopes)
    for (std::size_t q = lo; q < hi; ++q)
      if (v.is(q, name) && !v.member(q) && (v.is(q + 1, "=") || v.is(q + 1, ";") || v.is(q + 1, ",")) && q > lo &&
          (v.ident(q - 1) && (is_int_type_word(v.t(q - 1)) || v.is(q - 1, "auto") || v.is(q - 1, "const"))))
        decls.push_back(q);
    if (decls.empty()) {
      bool param = false;
      for (std::size_t q = fi.name_ci; q < fi.body_open; ++q) param |= v.is(q, name);
      blockers.push_back({fn.file, v.line(lo),
                          "the lane mask '" + std::string(name) + "' is " +
                              (param ? "a parameter" : "declared where the fixer cannot widen it")});
      continue;
    }
    for (const std::size_t decl : decls) {
      std::size_t w = decl;
      std::vector<std::string_view> words;
      while (w > lo && v.ident(w - 1) &&
             (is_int_type_word(v.t(w - 1)) ||
              is_one_of(v.t(w - 1), {"const", "volatile", "auto", "register", "static"}))) {
        --w;
        if (!is_one_of(v.t(w), {"const", "volatile", "register", "static"})) words.insert(words.begin(), v.t(w));
      }
      if (is_64bit_type(words)) continue;
      if (!is_32bit_type(words)) {
        blockers.push_back(
            {fn.file, v.line(decl), "the lane mask '" + std::string(name) + "' has a type the fixer does not widen"});
        continue;
      }
      // the integer words as one range
      std::size_t a = decl, b = 0;
      for (std::size_t q = w; q < decl; ++q)
        if (is_int_type_word(v.t(q))) {
          a = std::min(a, q);
          b = q;
        }
      Site s{Diag::BallotResult32,
             true,
             fn.file,
             v.at(decl),
             {{v.at(a), v.end(b), widened_type(v, a, b, !options_.cuda_output)}}};
      s.widened_var = v.at(decl);
      sites.push_back(std::move(s));
    }
  }
  // Uses of masks: bit functions get their 64-bit forms; anything else 32-bit blocks.
  for (std::size_t q = lo; q < hi; ++q) {
    if (!v.ident(q) || v.member(q)) continue;
    const std::string_view s = v.t(q);
    if ((s == "__popc" || s == "__ffs" || s == "__clz" || s == "__brev") && v.is(q + 1, "(") &&
        v.partner(q + 1) != npos) {
      bool mask_arg = false;
      for (std::size_t r = q + 2; r < v.partner(q + 1); ++r)
        if (is_mask_source(r) || lane_bit_at(r) || (v.ident(r) && masks.count(v.t(r)))) mask_arg = true;
      if (!mask_arg) continue;
      if (s == "__clz" || s == "__brev") {
        blockers.push_back({fn.file, v.line(q), std::string(s) + " of a lane mask counts from bit 31"});
        continue;
      }
      Site site{Diag::BallotPopc32,
                true,
                fn.file,
                v.at(q),
                {replace_token(v, q, widened_bit_call(s, !options_.cuda_output))}};
      site.widened_call = v.at(q);
      sites.push_back(std::move(site));
      continue;
    }
    if (!masks.count(s) || v.is(q + 1, "(")) continue;
    // stored into an array element, passed to a call, compared with a 32-bit literal
    if (v.is(q - 1, "=") && q >= 2 && v.is(q - 2, "]")) {
      blockers.push_back({fn.file, v.line(q), "the lane mask '" + std::string(s) + "' is stored in an array"});
      continue;
    }
    for (std::size_t r = q + 1; r < hi && !v.is(r, ";") && !v.is(r, ")"); ++r) {
      if (v.number(r) && parse_int(v.t(r)) == 0xffffffffLL) {
        blockers.push_back(
            {fn.file, v.line(q), "the lane mask '" + std::string(s) + "' is compared with a 32-bit value"});
        break;
      }
      if (v.is(r, ",") || v.is(r, "=")) break;
    }
  }
  if (returns_mask) {
    // the helper's return type
    std::size_t w = fi.name_ci;
    std::vector<std::string_view> words;
    std::size_t a = npos, b = 0;
    while (
        w > 0 && v.ident(w - 1) &&
        (is_int_type_word(v.t(w - 1)) || is_one_of(v.t(w - 1), {"const", "inline", "static", "__device__", "__host__",
                                                                "__forceinline__", "constexpr", "__inline__"}))) {
      --w;
      if (is_int_type_word(v.t(w))) {
        words.insert(words.begin(), v.t(w));
        a = std::min(a, w);
        b = std::max(b, w);
      }
    }
    if (is_64bit_type(words)) return;
    if (!is_32bit_type(words) || a == npos) {
      blockers.push_back(
          {fn.file, v.line(fi.name_ci), "'" + fi.name + "' returns a lane mask in a type the fixer does not widen"});
      return;
    }
    // another declaration of the helper (a prototype) would no longer match
    const int defs = static_cast<int>(functions_named(fi.name).size());
    Site s{Diag::BallotResult32,
           false,
           fn.file,
           v.at(fi.name_ci),
           {{v.at(a), v.end(b), widened_type(v, a, b, !options_.cuda_output)}}};
    s.widened_var = v.at(fi.name_ci);
    sites.push_back(std::move(s));
    if (defs > 1) blockers.push_back({fn.file, v.line(fi.name_ci), "'" + fi.name + "' is defined more than once"});
  }
}

}  // namespace ferry::analysis::wave64_plan
