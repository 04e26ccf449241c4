#include "analysis/tokens.h"

#include <algorithm>
#include <cctype>
#include <climits>

#include "analysis/wave64_fix/hints.h"
#include "lex/const_expr.h"

namespace ferry::analysis::detail {

// ---------------------------------------------------------------------------------------------
// Small token helpers

bool is_one_of(std::string_view t, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_keyword_stop(std::string_view s) {
  return is_one_of(s, {"return", "case",      "throw",  "else",     "do",   "co_return", "co_yield", "sizeof",
                       "const",  "constexpr", "static", "volatile", "int",  "unsigned",  "auto",     "long",
                       "short",  "char",      "float",  "double",   "bool", "void",      "signed"});
}

// Names that say "the width of a warp": WARP_SIZE, kWarpSize, warp_width, THREADS_PER_WARP,
// WAVEFRONT_SIZE. Plural "warps" means a count of warps and is excluded.
// Whether `s` holds "warp" or "wave" in any case. ASCII folding, as std::tolower does in the "C"
// locale Ferry runs in; inline, since every distinct identifier of a file is asked.
static bool says_warp_or_wave(std::string_view s) {
  const auto fold = [](char c) { return static_cast<unsigned char>(c) | 0x20u; };  // letters only compared
  for (std::size_t i = 0; i + 4 <= s.size(); ++i) {
    if (fold(s[i]) != 'w' || fold(s[i + 1]) != 'a') continue;
    const unsigned c = fold(s[i + 2]), d = fold(s[i + 3]);
    if ((c == 'r' && d == 'p') || (c == 'v' && d == 'e')) return true;
  }
  return false;
}

bool is_warp_width_name(std::string_view name) {
  // Most identifiers say neither: answer those without building the lowercase copy.
  if (!says_warp_or_wave(name)) return false;
  std::string l = lower(name);
  for (std::size_t at = l.find("warpsize"); at != std::string::npos; at = l.find("warpsize"))
    l.replace(at, 8, "warp_size");  // kWarpSize is a width, kWarpsPerBlock a count
  if (l.find("warps") != std::string::npos || l.find("waves") != std::string::npos) return false;
  const bool warp = l.find("warp") != std::string::npos || l.find("wave") != std::string::npos;
  if (!warp) return false;
  return l.find("size") != std::string::npos || l.find("width") != std::string::npos ||
         l.find("lanes") != std::string::npos || l.find("threads") != std::string::npos ||
         l.find("len") != std::string::npos || l == "warp" || l == "kwarp";
}

// __syncwarp is not here: its mask only names the lanes that wait, it moves no data, and HIP's
// replacement (a wavefront barrier) is right for any mask.
extern const std::array<std::string_view, 17> kWarpSyncFunctions;
const std::array<std::string_view, 17> kWarpSyncFunctions = {"__shfl_sync",
                                                             "__shfl_up_sync",
                                                             "__shfl_down_sync",
                                                             "__shfl_xor_sync",
                                                             "__ballot_sync",
                                                             "__any_sync",
                                                             "__all_sync",
                                                             "__uni_sync",
                                                             "__match_any_sync",
                                                             "__match_all_sync",
                                                             "__reduce_add_sync",
                                                             "__reduce_min_sync",
                                                             "__reduce_max_sync",
                                                             "__reduce_and_sync",
                                                             "__reduce_or_sync",
                                                             "__reduce_xor_sync",
                                                             "__fns"};

bool is_ballot_call_name(std::string_view t) { return t == "__ballot_sync" || t == "__ballot" || t == "__activemask"; }

std::optional<long long> parse_int(std::string_view t) {
  const auto v = lex::integer_literal(t);
  if (!v || *v > static_cast<unsigned long long>(LLONG_MAX)) return std::nullopt;
  return static_cast<long long>(*v);
}

// A token that can end an operand: then a following '&', '*', '-', '+' is binary.
bool ends_operand(const CodeView& v, std::size_t ci) {
  if (ci >= v.code_size()) return false;
  const lex::Kind k = v.code(ci).kind;
  if (k == lex::Kind::Identifier) return !is_keyword_stop(v.text(ci));
  return k == lex::Kind::Number || k == lex::Kind::String || k == lex::Kind::Char || v.is(ci, ")") || v.is(ci, "]");
}

// End of the expression starting at `first`: the code index before the first ';' or ',' at
// depth 0, or before a closing bracket of an enclosing group.
std::size_t expression_last(const CodeView& v, std::size_t first, std::size_t limit) {
  std::size_t i = first;
  while (i <= limit && i < v.code_size()) {
    const std::string_view s = v.text(i);
    if (s == "(" || s == "[" || s == "{") {
      const std::size_t p = v.partner(i);
      if (p == npos) return i == first ? first : i - 1;
      i = p + 1;
      continue;
    }
    if (s == ";" || s == "," || s == ")" || s == "]" || s == "}") break;
    ++i;
  }
  return i == first ? first : i - 1;
}

// First code index of the left operand of the binary operator at `op`.
std::size_t left_operand_first(const CodeView& v, std::size_t op, std::size_t floor) {
  const int my = lex::binary_precedence(v.text(op));
  std::size_t j = op;  // candidate start
  bool need_operand = true;
  while (j > floor) {
    const std::size_t k = j - 1;
    const std::string_view s = v.text(k);
    if (need_operand) {
      if (s == ")" || s == "]") {
        const std::size_t open = v.partner(k);
        if (open == npos || open < floor) break;
        j = open;
        // a call or subscript: the callee/array name belongs to the operand
        need_operand = false;
        if (open > floor && (v.is_identifier(open - 1) && !is_keyword_stop(v.text(open - 1)) &&
                             !is_one_of(v.text(open - 1), {"if", "while", "for", "switch"}))) {
          j = open - 1;
        }
        continue;
      }
      if ((v.is_identifier(k) && !is_keyword_stop(v.text(k))) || v.is_number(k)) {
        j = k;
        need_operand = false;
        continue;
      }
      break;
    }
    // after an operand: a member access, a unary prefix, a cast, or a binary operator
    if (s == "." || s == "->" || s == "::") {
      j = k;
      need_operand = true;
      continue;
    }
    if (s == ")") {  // a cast: (int)x
      const std::size_t open = v.partner(k);
      if (open == npos || open < floor) break;
      bool cast = true;
      for (std::size_t q = open + 1; q < k; ++q) cast = cast && (v.is_identifier(q) || v.is(q, "::") || v.is(q, "*"));
      if (!cast) break;
      j = open;
      continue;
    }
    const int p = lex::binary_precedence(s);
    if (p > 0 && k > floor && ends_operand(v, k - 1)) {
      if (p < my) break;
      j = k;
      need_operand = true;
      continue;
    }
    if (is_one_of(s, {"!", "~", "-", "+", "*", "&"})) {  // unary prefix
      j = k;
      continue;
    }
    break;
  }
  return j;
}

// Last code index of the primary operand (with member accesses, calls, subscripts) at `first`.
std::size_t primary_last(const CodeView& v, std::size_t first) {
  std::size_t i = first;
  if (v.is(i, "(")) {
    const std::size_t p = v.partner(i);
    return p == npos ? i : p;
  }
  if (!v.is_identifier(i) && !v.is_number(i)) return npos;
  while (true) {
    if ((v.is(i + 1, ".") || v.is(i + 1, "->")) && v.is_identifier(i + 2)) {
      i += 2;
      continue;
    }
    if (v.is(i + 1, "(") || v.is(i + 1, "[")) {
      const std::size_t p = v.partner(i + 1);
      if (p == npos) return i;
      i = p;
      continue;
    }
    return i;
  }
}

// The launch arguments between <<< and >>> at `open`.
std::optional<LaneLoop> lane_loop(const CodeView& v, std::size_t for_ci) {
  if (!v.is(for_ci, "for") || !v.is(for_ci + 1, "(")) return std::nullopt;
  LaneLoop L;
  L.close = v.partner(for_ci + 1);
  if (L.close == npos) return std::nullopt;
  std::vector<std::size_t> semis;  // the header's top-level ';'
  for (std::size_t i = for_ci + 2; i < L.close; ++i) {
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      if (v.partner(i) != npos) i = v.partner(i);
      continue;
    }
    if (v.is(i, ";")) semis.push_back(i);
  }
  if (semis.size() != 2) return std::nullopt;
  std::size_t eq = npos;  // init: [type] var = <literal>
  for (std::size_t i = for_ci + 2; i < semis[0]; ++i)
    if (v.is(i, "=")) {
      eq = i;
      break;
    }
  if (eq == npos || !v.is_identifier(eq - 1) || eq + 2 != semis[0] || !v.is_number(eq + 1)) return std::nullopt;
  L.var = std::string(v.text(eq - 1));
  const auto start = parse_int(v.text(eq + 1));
  std::string step, cond;
  for (std::size_t i = semis[1] + 1; i < L.close; ++i) step += v.text(i);
  for (std::size_t i = semis[0] + 1; i < semis[1]; ++i) cond += v.text(i);
  const std::string& x = L.var;
  L.halving = is_one_of(step, {x + ">>=1", x + "/=2"}) || step == x + "=" + x + ">>1" || step == x + "=" + x + "/2";
  const bool doubling =
      is_one_of(step, {x + "<<=1", x + "*=2"}) || step == x + "=" + x + "<<1" || step == x + "=" + x + "*2";
  if (L.halving && start == 16) L.hit = eq + 1;
  if (doubling && start == 1 && (cond == x + "<32" || cond == x + "<=16"))
    for (std::size_t i = semis[0] + 1; i < semis[1]; ++i)
      if (v.is_number(i)) L.hit = i;
  if (L.hit == npos) return std::nullopt;
  L.body_first = L.close + 1;
  if (v.is(L.body_first, "{")) {
    L.body_last = v.partner(L.body_first);
    if (L.body_last == npos) return std::nullopt;
  } else {
    L.body_last = L.body_first;
    while (L.body_last < v.code_size() && !v.is(L.body_last, ";")) {
      if (v.partner(L.body_last) != npos &&
          (v.is(L.body_last, "(") || v.is(L.body_last, "{") || v.is(L.body_last, "[")))
        L.body_last = v.partner(L.body_last);
      ++L.body_last;
    }
  }
  return L;
}

std::vector<ArgRange> launch_args(const CodeView& v, std::size_t open) {
  std::vector<ArgRange> args;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i < v.code_size(); ++i) {
    const lex::Kind k = v.code(i).kind;
    if (k == lex::Kind::LaunchClose) {
      args.push_back({start, i - 1});
      return args;
    }
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      if (v.partner(i) == npos) return {};
      i = v.partner(i);
      continue;
    }
    if (v.is(i, ",")) {
      args.push_back({start, i - 1});
      start = i + 1;
    }
    if (v.is(i, ";")) return {};
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Diagnostics helpers

std::string prof_why(const Profile& p) {
  return "on " + p.name + " a wavefront has " + std::to_string(p.wave_size) + " lanes";
}

std::string bytes_str(long long b) {
  std::string s = std::to_string(b) + " bytes";
  if (b >= 1024 && b % 1024 == 0) s += " (" + std::to_string(b / 1024) + " KiB)";
  return s;
}

// A hazard that --fix repaired is reported as a note (it is gone from the output).
void report(FileMigration& f, const HazardOptions& opt, Diag code, std::size_t ci, std::string msg, std::string hint) {
  if (f.excluded(ci)) return;
  bool fixed = false;
  const std::pair<Diag, std::uint32_t> key{code, f.code(ci).begin};
  if (opt.fixed_sites && opt.fixed_sites->count(key)) {
    if (opt.fixed_how)
      if (const auto how = opt.fixed_how->find(key); how != opt.fixed_how->end()) hint = how->second;
    if (opt.fixed_sites_applied) {
      fixed = true;
      hint = "fixed (wave64 fix): " + hint;
    } else if (hint.starts_with(kWmmaDoubledHow)) {
      hint += "; fixable automatically with its whole component by 'ferry migrate --to hip' (64-lane wavefronts only)";
    } else {
      hint +=
          "; fixable automatically with its whole component ('ferry analyze --fix -o OUT', or "
          "'ferry migrate --to hip')";
    }
  } else if (opt.harmless_sites && opt.harmless_sites->count(key)) {
    fixed = true;  // a note: nothing to do
    msg +=
        " (no warp operation reaches this value in the project: here it is plain arithmetic, "
        "right on any wavefront)";
    hint = "nothing to change for correctness; " + hint + " if the code should use whole wavefronts";
  } else if (opt.unfixed_reasons) {
    const auto it = opt.unfixed_reasons->find(key);
    if (it != opt.unfixed_reasons->end()) hint += "; not fixed automatically: " + it->second;
  }
  f.diag(code, fixed ? Severity::Note : Severity::Warning, ci, std::move(msg), std::move(hint));
}

}  // namespace ferry::analysis::detail

namespace ferry::analysis {

std::size_t angle_close(const lex::CodeView& v, std::size_t open, std::size_t last) {
  if (!v.is(open, "<")) return lex::npos;
  if (last == lex::npos) last = v.code_size() - 1;
  std::size_t close = lex::npos;
  walk_top_level(v, open, last, [&](std::size_t i, int angle) {
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      const std::size_t m = v.partner(i);
      return m != lex::npos && m <= last;  // else unbalanced, or past `last`: not closed
    }
    if (v.is(i, ">")) {
      if (angle == 1) close = i;
      return angle > 1;
    }
    if (v.is(i, ">>")) {
      if (angle == 2) close = i;
      return angle > 2;
    }
    return !(v.is(i, ";") || v.is(i, ")") || v.is(i, "]") || v.is(i, "}"));
  });
  return close;
}

std::size_t angle_open(const lex::CodeView& v, std::size_t close, std::size_t first) {
  if (!(v.is(close, ">") || v.is(close, ">>")) || close < first) return lex::npos;
  int depth = 0;
  for (std::size_t i = close;; --i) {
    if (v.is(i, ">")) ++depth;
    else if (v.is(i, ">>")) depth += 2;
    else if (v.is(i, "<") && --depth == 0) return i;
    else if (v.is(i, ";") || v.is(i, "{") || v.is(i, "}")) return lex::npos;
    if (i == first) return lex::npos;
  }
}

std::vector<lex::ArgRange> split_top_level(const lex::CodeView& v, std::size_t first, std::size_t last, bool angles) {
  std::vector<lex::ArgRange> out;
  if (first > last) return out;
  std::size_t piece = first;
  walk_top_level(v, first, last, [&](std::size_t i, int angle) {
    if (v.is(i, ",") && (!angles || angle <= 0)) {
      out.push_back({piece, i - 1});
      piece = i + 1;
    }
    return true;
  });
  out.push_back({piece, last});
  return out;
}

bool names_warp_or_wave(std::string_view name) { return detail::says_warp_or_wave(name); }

}  // namespace ferry::analysis
