// CUDA 9 warp intrinsics → what HIP 5.2 offers, correct on 64-lane wavefronts.
//
// HIP 5.2 has no *_sync intrinsics, no __syncwarp and no __activemask; its __shfl*, __ballot,
// __any and __all act on the whole wavefront, and __ballot returns a 64-bit mask. So:
//  - the mask argument is dropped; a full mask (0xffffffff, ~0u, -1, a macro or constant of the
//    file defined as one, __activemask()) means exactly that, anything else gets FRY2101;
//  - __activemask() → __ballot(1) (the lanes executing, as a 64-bit mask);
//  - __syncwarp([mask]) → a wavefront release fence, a wave barrier and an acquire fence, as one
//    comma expression so it stays valid wherever the call stood;
//  - a ballot stored in a 32-bit integer (FRY2102) or counted with a 32-bit bit function
//    (FRY2103) is reported; __popc/__ffs of a ballot are widened to __popcll/__ffsll when the
//    value is certainly 64-bit;
//  - __match_*_sync (FRY1101) and __reduce_*_sync (FRY1102) have no HIP 5.2 form: left as they
//    are, with the shuffle loop that replaces them as the hint.
// The width argument of the shuffles is kept as written: CUDA's default is warpSize and so is
// HIP's, which keeps warpSize-generic code right; 32-lane assumptions are the lane-math
// analysis' business.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "lex/const_expr.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using migrate::ArgRange;
using migrate::FileMigration;
using migrate::npos;

enum class Op : std::uint8_t { Shuffle, Vote, Ballot, ActiveMask, SyncWarp, Match, Reduce };

struct Intrinsic {
  std::string_view cuda;
  std::string_view hip;  // for Shuffle/Vote/Ballot
  Op op;
  std::size_t min_args;  // including the mask
};

constexpr Intrinsic kIntrinsics[] = {
    {"__shfl_sync", "__shfl", Op::Shuffle, 3},
    {"__shfl_up_sync", "__shfl_up", Op::Shuffle, 3},
    {"__shfl_down_sync", "__shfl_down", Op::Shuffle, 3},
    {"__shfl_xor_sync", "__shfl_xor", Op::Shuffle, 3},
    {"__ballot_sync", "__ballot", Op::Ballot, 2},
    {"__any_sync", "__any", Op::Vote, 2},
    {"__all_sync", "__all", Op::Vote, 2},
    {"__activemask", "", Op::ActiveMask, 0},
    {"__syncwarp", "", Op::SyncWarp, 0},
    {"__match_any_sync", "", Op::Match, 2},
    {"__match_all_sync", "", Op::Match, 3},
    {"__reduce_add_sync", "+", Op::Reduce, 2},
    {"__reduce_min_sync", "min", Op::Reduce, 2},
    {"__reduce_max_sync", "max", Op::Reduce, 2},
    {"__reduce_and_sync", "&", Op::Reduce, 2},
    {"__reduce_or_sync", "|", Op::Reduce, 2},
    {"__reduce_xor_sync", "^", Op::Reduce, 2},
};

const Intrinsic* find_intrinsic(std::string_view name) {
  for (const Intrinsic& i : kIntrinsics)
    if (i.cuda == name) return &i;
  return nullptr;
}

// Where the file names an intrinsic of kIntrinsics, ascending.
std::vector<std::uint32_t> intrinsic_names(const FileMigration& f) {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const Intrinsic& i : kIntrinsics) names.push_back(i.cuda);
    return names;
  }();
  return f.occurrences(kNames);
}

constexpr std::string_view kSyncWarp =
    "(__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"), __builtin_amdgcn_wave_barrier(), "
    "__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\"))";

bool is_full_literal(std::string_view t) {
  const auto v = lex::integer_literal(t);
  return v && (*v == 0xffffffffull || *v == ~0ull);
}

bool is_zero_literal(std::string_view t) { return lex::integer_literal(t) == 0ull; }

// Facts about one file that the rewrites consult.
struct FileFacts {
  std::set<std::string, std::less<>> full_mask_names;  // macros/constants defined as a full mask
  // The declarations of an integer variable: name → (code index, width), in file order; filled
  // for a name when width_at first asks about it.
  std::map<std::string, std::vector<std::pair<std::size_t, IntWidth>>, std::less<>> decls;
  // Variables that received a ballot: name → (code index of the assignment, width known there).
  std::map<std::string, std::vector<std::pair<std::size_t, IntWidth>>, std::less<>> ballot_vars;
};

// Is code range [first, last] a full mask?
bool is_full_mask(const FileMigration& f, const FileFacts& facts, std::size_t first, std::size_t last) {
  while (first < last && f.is(first, "(") && f.match_bracket(first) == last) {
    ++first;
    --last;
  }
  if (first > last) return false;
  // A C-style cast in front: (unsigned)-1, (uint32_t)0xffffffff.
  if (f.is(first, "(")) {
    const std::size_t close = f.match_bracket(first);
    if (close != npos && close < last) return is_full_mask(f, facts, close + 1, last);
  }
  const std::size_t n = last - first + 1;
  if (n == 1) {
    const lex::Token& t = f.code(first);
    if (t.kind == lex::Kind::Number) return is_full_literal(f.text(first));
    if (t.kind == lex::Kind::Identifier) return facts.full_mask_names.contains(f.text(first));
    return false;
  }
  if (n == 2 && f.is(first, "-")) return lex::integer_literal(f.text(last)) == 1ull;
  if (n == 2 && f.is(first, "~")) return is_zero_literal(f.text(last));
  if (n == 3 && f.is(first, "__activemask") && f.is(first + 1, "(") && f.is(last, ")")) return true;
  return false;
}

// End (exclusive code index) of the expression starting at `first` inside a directive line or a
// statement: up to `;`, a `,` or closing bracket at depth 0, or the end of the directive.
std::size_t expression_end(const FileMigration& f, std::size_t first) {
  if (first >= f.code_size()) return first;  // `const int lane =` at the end of the input
  const bool directive = f.code(first).in_directive;
  const std::uint32_t line = f.code(first).line;
  int depth = 0;
  std::size_t i = first;
  for (; i < f.code_size(); ++i) {
    const lex::Token& t = f.code(i);
    if (directive && (!t.in_directive || (t.line != line && f.is(i, "#")))) break;
    const std::string_view s = f.text(i);
    if (s == "(" || s == "[" || s == "{") ++depth;
    else if (s == ")" || s == "]" || s == "}") {
      if (depth == 0) break;
      --depth;
    } else if (depth == 0 && (s == ";" || s == ",")) break;
  }
  return i;
}

FileFacts collect_facts(const FileMigration& f) {
  FileFacts facts;
  // Pass 1: names defined as a full mask. Constants may be defined from earlier macros.
  // Only a name after `define` or before `=` is read below: the occurrences of `define` (the name
  // index) and of `=` (next_key), merged in file order; the other tokens are passed on their keys.
  auto visit = [&](std::size_t ci) {
    if (!f.is_identifier(ci)) return;
    const lex::Token& t = f.code(ci);
    if (t.in_directive && ci >= 2 && f.is(ci - 1, "define") && f.is(ci - 2, "#")) {
      const lex::Token& next = f.code(ci + 1);
      if (!next.in_directive || next.line != t.line) return;
      if (f.is(ci + 1, "(") && next.begin == t.end) return;  // function-like macro
      const std::size_t end = expression_end(f, ci + 1);
      if (end > ci + 1 && is_full_mask(f, facts, ci + 1, end - 1)) facts.full_mask_names.emplace(f.text(ci));
      return;
    }
    if (t.in_directive || !f.is(ci + 1, "=")) return;
    // `const[expr] T NAME = <full mask>;`
    bool is_const = false;
    for (std::size_t j = ci; j > 0; --j) {
      const std::string_view p = f.text(j - 1);
      if (p == ";" || p == "{" || p == "}" || p == "(" || p == ")" || p == ",") break;
      if (p == "const" || p == "constexpr") is_const = true;
    }
    if (!is_const) return;
    const std::size_t end = expression_end(f, ci + 2);
    if (end > ci + 2 && is_full_mask(f, facts, ci + 2, end - 1)) facts.full_mask_names.emplace(f.text(ci));
  };
  const std::size_t n = f.code_size();
  const std::uint64_t assign = lex::short_key("=");
  const std::span<const std::uint32_t> defines = f.occurrences("define");
  std::size_t d = 0;                                             // the next `define`
  std::size_t eq = analysis::detail::next_key(f, 1, n, assign);  // the next `=` after a token
  while (true) {
    const std::size_t by_define = d < defines.size() ? defines[d] + 1 : npos;  // the name after it
    const std::size_t by_assign = eq < n ? eq - 1 : npos;                      // the name before it
    const std::size_t ci = std::min(by_define, by_assign);
    if (ci == npos) break;
    if (ci == by_define) ++d;
    if (ci == by_assign) eq = analysis::detail::next_key(f, eq + 1, n, assign);
    if (ci + 1 < n) visit(ci);
  }
  return facts;
}

// The width of variable `name` as seen at code index `at`: its nearest declaration before.
IntWidth width_at(const FileMigration& f, FileFacts& facts, std::string_view name, std::size_t at) {
  auto it = facts.decls.find(name);
  if (it == facts.decls.end()) {  // the name's integer declarations, from its occurrences
    std::vector<std::pair<std::size_t, IntWidth>> found;
    for (const std::size_t ci : f.occurrences(name)) {
      if (f.code(ci).in_directive) continue;
      const std::string_view n = f.text(ci + 1);
      if (n != "=" && n != ";" && n != "," && n != ")" && n != "{" && n != "[") continue;
      const IntWidth w = declared_width(f, ci);
      if (w != IntWidth::None) found.emplace_back(ci, w);
    }
    it = facts.decls.emplace(std::string(name), std::move(found)).first;
  }
  IntWidth w = IntWidth::Unknown;
  for (const auto& [ci, width] : it->second)
    if (ci < at) w = width;
  return w;
}

// The type words written before the declared name at `name_ci` ("const unsigned int").
std::string_view width_words(const FileMigration& f, std::size_t name_ci) {
  std::size_t i = name_ci;
  while (i > 0) {
    const std::string_view p = f.text(i - 1);
    if (!(p == "unsigned" || p == "signed" || p == "int" || p == "short" || p == "char" || p == "long" ||
          p == "const" || p == "volatile" || p == "uint32_t" || p == "int32_t" || p == "uint16_t" || p == "int16_t" ||
          p == "::" || p == "std"))
      break;
    --i;
  }
  if (i == name_ci) return {};
  return f.span_text(i, name_ci - 1);
}

// A ballot result (call at [ci, close]) flowing into a variable: record it, and report a
// 32-bit destination.
void check_ballot_destination(FileMigration& f, FileFacts& facts, std::size_t ci, std::string_view what) {
  if (ci < 2) return;
  const std::string_view op = f.text(ci - 1);
  if (op != "=" && op != "|=" && op != "&=" && op != "^=") return;
  const std::size_t var = ci - 2;
  if (!f.is_identifier(var)) return;
  IntWidth w = op == "=" ? declared_width(f, var) : IntWidth::None;
  const bool declared_here = w != IntWidth::None;
  if (!declared_here) w = width_at(f, facts, f.text(var), var);
  facts.ballot_vars[std::string(f.text(var))].emplace_back(ci, w);
  if (w != IntWidth::Narrow) return;
  std::string type;
  if (declared_here) type = std::string(width_words(f, var));
  f.diag(Diag::BallotStored32, var,
         "'" + std::string(f.text(var)) + "'" + (type.empty() ? "" : " (" + type + ")") + " is 32-bit but receives " +
             std::string(what) + ", a 64-bit lane mask on AMD (wave64): lanes 32-63 are lost",
         "declare it unsigned long long (or uint64_t) and use the 64-bit bit functions "
         "(__popcll, __ffsll, __clzll)");
}

void report_mask(FileMigration& f, std::size_t ci, const ArgRange& mask) {
  f.diag(Diag::WarpMaskNotFull, ci,
         "'" + std::string(f.text(ci)) + "' with mask '" + std::string(f.span_text(mask.first, mask.last)) +
             "' that is not known to be the full mask: HIP 5.2 has no masked warp intrinsics, "
             "so the mask was dropped and every active lane of the 64-lane wavefront now takes part",
         "make sure the lanes outside the mask hold valid values and reach this call together "
         "(e.g. compute in all lanes and select the result), or guard the call so only intended "
         "lanes use its result");
}

void handle_call(FileMigration& f, FileFacts& facts, std::size_t ci, const Intrinsic& in) {
  const std::size_t open = ci + 1;
  const std::size_t close = f.match_bracket(open);
  if (close == npos) return;
  const std::vector<ArgRange> args = f.call_args(open);
  const std::string name(f.text(ci));
  switch (in.op) {
    case Op::Shuffle:
    case Op::Vote:
    case Op::Ballot: {
      if (args.size() < in.min_args || args[0].empty() || args[1].empty()) return;
      const bool full = is_full_mask(f, facts, args[0].first, args[0].last);
      // Replace "name(mask, " up to the first kept argument; the rest stays as written so
      // other rewrites inside the arguments still apply. A mask other than the 0xffffffff the way
      // back writes is recorded in a comment, for HIP -> CUDA to restore (docs/targets.md).
      const std::string_view dropped =
          f.source().substr(f.code(ci).begin, f.code(args[1].first).begin - f.code(ci).begin);
      std::string head = std::string(in.hip) + "(";
      if (dropped != name + "(0xffffffff, " && rewrite::record::recordable(dropped))
        head += rewrite::record::make(dropped) + " ";
      if (!f.replace_bytes(f.code(ci).begin, f.code(args[1].first).begin, std::move(head))) return;
      f.count_converted("device");
      if (!full) report_mask(f, ci, args[0]);
      if (in.op == Op::Ballot) check_ballot_destination(f, facts, ci, "__ballot_sync(...)");
      return;
    }
    case Op::ActiveMask:
      if (!args.empty()) return;
      if (!f.replace(ci, close, "__ballot(1)")) return;
      f.count_converted("device");
      check_ballot_destination(f, facts, ci, "__activemask()");
      return;
    case Op::SyncWarp: {
      if (args.size() > 1) return;
      // A mask (or a spelling) the way back's `__syncwarp()` would lose is recorded; the fence
      // expression's parentheses are the span's (rewrite/roundtrip_record.h).
      const std::string_view original = f.span_text(ci, close);
      std::string text(kSyncWarp);
      if (original != "__syncwarp()" && rewrite::record::recordable(original) && rewrite::record::span_can_open(f, ci))
        text += " " + rewrite::record::make(original);
      if (!f.replace(ci, close, std::move(text))) return;
      f.count_converted("device");
      return;
    }
    case Op::Match:
      // Claim the call unchanged: this diagnostic replaces the rule table's, and the arguments
      // stay exactly as written.
      if (!f.replace(ci, close, std::string(f.span_text(ci, close)))) return;
      f.count_unconverted("device");
      f.diag(Diag::MatchSyncUnsupported, ci, "'" + name + "' has no HIP 5.2 equivalent; left unchanged",
             name == "__match_any_sync"
                 ? "compute it with a shuffle loop over the lanes: for (int l = 0; l < warpSize; "
                   "++l) { auto o = __shfl(v, l); if (o == v) m |= 1ull << l; } with a 64-bit "
                   "mask m; or guard the code with #ifdef __HIP_PLATFORM_AMD__"
                 : "compute it with __ballot: m = __ballot(1); all = (__ballot(__shfl(v, 0) == v) "
                   "== m) with 64-bit masks; or guard the code with #ifdef __HIP_PLATFORM_AMD__");
      return;
    case Op::Reduce: {
      if (!f.replace(ci, close, std::string(f.span_text(ci, close)))) return;
      f.count_unconverted("device");
      const std::string op(in.hip);
      const std::string step =
          op == "min" || op == "max" ? "v = " + op + "(v, __shfl_xor(v, o))" : "v " + op + "= __shfl_xor(v, o)";
      f.diag(Diag::ReduceSyncUnsupported, ci, "'" + name + "' has no HIP 5.2 equivalent; left unchanged",
             "reduce with a butterfly over the wavefront: for (int o = warpSize / 2; o > 0; o /= 2) " + step +
                 "; (all lanes must be active), or guard the code with #ifdef "
                 "__HIP_PLATFORM_AMD__");
      return;
    }
  }
}

// __popc/__ffs/__clz/__brev of a ballot: widen what is certainly 64-bit, report the rest.
void check_bit_functions(FileMigration& f, const FileFacts& facts) {
  struct BitFn {
    std::string_view name;
    std::string_view wide;
    bool widen;  // same meaning at 64 bits (__clz/__brev count from the top: not the same)
  };
  static constexpr BitFn kFns[] = {{"__popc", "__popcll", true},
                                   {"__ffs", "__ffsll", true},
                                   {"__clz", "__clzll", false},
                                   {"__brev", "__brevll", false}};
  for (const std::size_t ci : f.occurrences({kFns[0].name, kFns[1].name, kFns[2].name, kFns[3].name})) {
    if (!f.is_identifier(ci) || !f.is(ci + 1, "(")) continue;
    const BitFn* fn = nullptr;
    for (const BitFn& b : kFns)
      if (f.is(ci, b.name)) fn = &b;
    if (!fn || f.excluded(ci) || f.touched(ci) || f.is_member_or_qualified(ci)) continue;
    const std::vector<ArgRange> args = f.call_args(ci + 1);
    if (args.size() != 1 || args[0].empty()) continue;
    const ArgRange a = args[0];
    bool wide = false;
    std::string what;
    const std::string_view head = f.text(a.first);
    if ((head == "__ballot_sync" || head == "__activemask" || head == "__ballot") && f.is(a.first + 1, "(") &&
        f.match_bracket(a.first + 1) == a.last) {
      wide = true;
      what = "its argument is a ballot";
    } else if (a.first == a.last && f.is_identifier(a.first)) {
      const auto it = facts.ballot_vars.find(f.text(a.first));
      if (it == facts.ballot_vars.end()) continue;
      bool seen = false;
      IntWidth w = IntWidth::Unknown;
      for (const auto& [at, width] : it->second)
        if (at < ci) {
          seen = true;
          w = width;
        }
      if (!seen) continue;
      wide = w == IntWidth::Wide;
      what = "'" + std::string(head) + "' holds a ballot result";
    } else {
      continue;
    }
    if (wide && fn->widen) {
      if (f.replace(ci, ci, std::string(fn->wide))) f.count_converted("device");
      continue;
    }
    f.diag(Diag::BallotBitFunction32, ci,
           "'" + std::string(f.span_text(ci, f.match_bracket(ci + 1))) + "' looks at the low 32 bits only, but " +
               what + ", a 64-bit lane mask on AMD (wave64)",
           "keep the mask in unsigned long long and use " + std::string(fn->wide) +
               (fn->widen ? "" : " (it counts from bit 63, so adjust lane arithmetic)"));
  }
}

// CUDA's legacy warp intrinsics (`__shfl_down(v, o)`, `__any(p)`, ...) keep their names in HIP, but
// the way back writes every HIP call of them as CUDA 9's `_sync` form with a full mask (the HIP
// name is all the `_sync` rewrite above leaves). A legacy call in CUDA code is recorded by its
// spelling, `__shfl_down /* ferry-cuda: __shfl_down */(v, o)`, so that HIP -> CUDA writes it as
// it was (rewrite/roundtrip_record.h). Not in HIP code: there an unrecorded `__shfl_down(v, o)`
// is the `_sync` rewrite's output, and recording it would change a HIP output migrated again.
void record_legacy_calls(FileMigration& file) {
  static const std::vector<std::string_view> kLegacy = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                                                        "__any",  "__all",     "__ballot"};
  const std::vector<std::uint32_t> calls = file.occurrences(kLegacy);
  if (calls.empty() || includes_hip_header(file)) return;
  const auto& clashes = file.project().clash_renames;
  for (const std::size_t ci : calls) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci) ||
        file.is_member_or_qualified(ci) || is_declared_name(file, ci) || clashes.contains(std::string(file.text(ci))))
      continue;
    if (rewrite::record::after(file.tokens(), file.source(), file.token_index(ci))) continue;  // recorded before
    file.edits().insert(file.code(ci).end, " " + rewrite::record::make(file.text(ci)));
  }
}

}  // namespace

void warp_intrinsics_pass(FileMigration& file) {
  record_legacy_calls(file);
  // Everything below starts at an intrinsic's name or a legacy __ballot (the bit functions look
  // at ballots only): a file without one has nothing to rewrite or report.
  const std::vector<std::uint32_t> calls = intrinsic_names(file);
  if (calls.empty() && !file.mentions("__ballot")) return;
  FileFacts facts = collect_facts(file);
  const auto& clashes = file.project().clash_renames;
  for (const std::size_t ci : calls) {
    if (!file.is_identifier(ci)) continue;
    const Intrinsic* in = find_intrinsic(file.text(ci));
    if (!in || !file.is(ci + 1, "(")) continue;
    if (file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci)) continue;
    if (clashes.contains(std::string(file.text(ci)))) continue;
    // The user's own definition (a compatibility shim for old CUDA) is not a call: claim its
    // name unchanged so the rule tables leave it alone too.
    if (is_declared_name(file, ci)) {
      file.replace(ci, ci, std::string(file.text(ci)));
      continue;
    }
    handle_call(file, facts, ci, *in);
  }
  // Legacy __ballot(p) is 32-bit in CUDA and 64-bit in HIP: same destination check.
  for (const std::size_t ci : file.occurrences("__ballot")) {
    if (!file.is(ci, "__ballot") || !file.is(ci + 1, "(") || file.touched(ci) || file.excluded(ci) ||
        file.is_member_or_qualified(ci) || is_declared_name(file, ci) || clashes.contains("__ballot"))
      continue;
    check_ballot_destination(file, facts, ci, "__ballot(...)");
  }
  check_bit_functions(file, facts);
}

}  // namespace ferry::targets::hip
