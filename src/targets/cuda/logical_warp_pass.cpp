// The logical 32-lane warps of the CUDA -> HIP target's wave64 fixes (src/analysis/wave64_fix/form_logical.cpp,
// docs/wave64.md "Round trips") come back as the CUDA that they were written from:
//   ((unsigned)(__ballot(P) >> (__lane_id() & 32)))        -> __ballot_sync(0xffffffff, P)
//   ((unsigned)(__ballot(1) >> (__lane_id() & 32)))        -> __activemask()
//   (0u != (unsigned)(__ballot(P) >> (__lane_id() & 32)))  -> __any_sync(0xffffffff, P)
//   (0u == (unsigned)(__ballot(!(P)) >> (__lane_id() & 32))) -> __all_sync(0xffffffff, P)
//   __shfl_xor(v, m, 32 /* ferry-cuda: (none) */)         -> __shfl_xor_sync(0xffffffff, v, m)
//   __shfl(v, ((s) & 31), 32 /* ferry-cuda: (none) */)    -> __shfl_sync(0xffffffff, v, s)
// A ballot's half is CUDA's 32-bit ballot of the warp, a vote of the half CUDA's vote, and a
// width the fix added (its record says so) is CUDA's default; an index source taken modulo 32 in
// such a call is what CUDA does with any source. Only the glue is edited, so renames inside the
// predicates and arguments still apply. `32 /* ferry-cuda: warpSize */` is record_restore's.
#include <string>
#include <vector>

#include "rewrite/roundtrip_record.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

constexpr std::string_view kHalf[] = {"(", "__lane_id", "(", ")", "&", "32", ")"};

// `(unsigned)(__ballot(ARGS) >> (__lane_id() & 32))` starting at `open` (its first `(`): the
// index of its last `)`, and of the ballot's `(` in `ballot_open`; npos when it is not that form.
std::size_t half_ballot(const FileMigration& f, std::size_t open, std::size_t& ballot_open) {
  if (!f.is(open, "(") || !f.is(open + 1, "unsigned") || !f.is(open + 2, ")") || !f.is(open + 3, "(") ||
      !f.is(open + 4, "__ballot") || !f.is(open + 5, "("))
    return npos;
  const std::size_t close = f.match_bracket(open + 5);
  if (close == npos || !f.is(close + 1, ">>")) return npos;
  std::size_t k = close + 2;
  for (std::string_view t : kHalf)
    if (!f.is(k++, t)) return npos;
  if (!f.is(k, ")") || f.match_bracket(open + 3) != k) return npos;
  ballot_open = open + 5;
  return k;
}

// A ballot or vote of the half starting at `ci` (a `(`): rewritten, true.
bool rewrite_half(FileMigration& f, std::size_t ci) {
  std::size_t bo = npos;
  // ((unsigned)(__ballot(P) >> HALF))
  if (const std::size_t e = half_ballot(f, ci + 1, bo); e != npos && f.is(e + 1, ")") && f.match_bracket(ci) == e + 1) {
    if (f.touched(bo - 1)) {
      // record_restore put the CUDA head back (`__ballot(/* ferry-cuda: __ballot_sync(mask, */ P)`,
      // a mask HIP cannot take): only the glue around the call goes
      const std::size_t close = f.match_bracket(bo);
      return f.replace_bytes(f.code(ci).begin, f.code(bo - 1).begin, "") &&
             f.replace_bytes(f.code(close).end, f.code(e + 1).end, "");
    }
    const std::vector<migrate::ArgRange> args = f.call_args(bo);
    if (args.size() != 1 || args[0].empty()) return false;
    if (args[0].first == args[0].last && f.is(args[0].first, "1")) return f.replace(ci, e + 1, "__activemask()");
    return f.replace_bytes(f.code(ci).begin, f.code(args[0].first).begin, "__ballot_sync(0xffffffff, ") &&
           f.replace_bytes(f.code(args[0].last).end, f.code(e + 1).end, ")");
  }
  // (0u != (unsigned)(__ballot(P) >> HALF)) and (0u == (unsigned)(__ballot(!(P)) >> HALF))
  if (!f.is(ci + 1, "0u") || !(f.is(ci + 2, "!=") || f.is(ci + 2, "=="))) return false;
  const std::size_t e = half_ballot(f, ci + 3, bo);
  if (e == npos || !f.is(e + 1, ")") || f.match_bracket(ci) != e + 1) return false;
  const std::vector<migrate::ArgRange> args = f.call_args(bo);
  if (args.size() != 1 || args[0].empty()) return false;
  std::size_t a = args[0].first, b = args[0].last;
  const bool all = f.is(ci + 2, "==");
  if (all) {  // !(P)
    if (!f.is(a, "!") || !f.is(a + 1, "(") || f.match_bracket(a + 1) != b || b <= a + 2) return false;
    a += 2, --b;
  }
  return f.replace_bytes(f.code(ci).begin, f.code(a).begin,
                         all ? "__all_sync(0xffffffff, " : "__any_sync(0xffffffff, ") &&
         f.replace_bytes(f.code(b).end, f.code(e + 1).end, ")");
}

// The `/* ferry-cuda: (none) */` record right after code token `ci`: its raw token index, or npos.
std::size_t none_record(const FileMigration& f, std::size_t ci) {
  const auto& toks = f.tokens();
  for (std::size_t k = f.token_index(ci) + 1; k < toks.size(); ++k) {
    if (toks[k].kind == lex::Kind::Whitespace) continue;
    return toks[k].kind == lex::Kind::BlockComment && toks[k].text(f.source()) == rewrite::record::kAdded ? k : npos;
  }
  return npos;
}

// A shuffle whose width the fix added: the width goes, an index source `((s) & 31)` becomes `s`,
// and the HIP name becomes the full-mask _sync form (unless record_restore put a head back).
bool rewrite_shuffle(FileMigration& f, std::size_t ci) {
  const std::string_view name = f.text(ci);
  const std::size_t close = f.match_bracket(ci + 1);
  if (close == npos) return false;
  const std::vector<migrate::ArgRange> args = f.call_args(ci + 1);
  const bool sync = name.ends_with("_sync");
  if (args.size() != (sync ? 4u : 3u)) return false;
  for (const migrate::ArgRange& a : args)
    if (a.empty()) return false;
  const migrate::ArgRange& w = args.back();
  if (w.first != w.last || !f.is(w.first, "32")) return false;
  const std::size_t rec = none_record(f, w.first);
  if (rec == npos || f.tokens()[rec].end > f.code(close).begin) return false;
  if (!f.replace_bytes(f.code(args[args.size() - 2].last).end, f.tokens()[rec].end, "")) return false;
  if (!sync && !f.touched(ci))
    f.replace_bytes(f.code(ci).begin, f.code(args[0].first).begin, std::string(name) + "_sync(0xffffffff, ");
  if (name == "__shfl" || name == "__shfl_sync") {
    const migrate::ArgRange& s = args[sync ? 2 : 1];
    // ( ( S ) & 31 )
    if (f.is(s.first, "(") && f.match_bracket(s.first) == s.last && f.is(s.first + 1, "(") && s.last >= s.first + 5 &&
        f.is(s.last - 1, "31") && f.is(s.last - 2, "&") && f.is(s.last - 3, ")") &&
        f.match_bracket(s.first + 1) == s.last - 3 && s.last - 3 > s.first + 2) {
      f.replace_bytes(f.code(s.first).begin, f.code(s.first + 2).begin, "");
      f.replace_bytes(f.code(s.last - 4).end, f.code(s.last).end, "");
    }
  }
  return true;
}

}  // namespace

void logical_warp_pass(FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (file.excluded(ci)) continue;
    if (file.is(ci, "(") && !file.touched(ci)) {
      if (rewrite_half(file, ci)) file.count_converted("device");
      continue;
    }
    if (file.is_identifier(ci) && file.text(ci).starts_with("__shfl") && file.is(ci + 1, "(") &&
        !file.is_member_or_qualified(ci) && rewrite_shuffle(file, ci))
      file.count_converted("device");
  }
}

}  // namespace ferry::targets::cuda
