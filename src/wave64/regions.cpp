#include "wave64/regions.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "lex/code_view.h"

namespace ferry::wave64 {
namespace {

using lex::CodeView;
constexpr std::size_t npos = static_cast<std::size_t>(-1);

// ---- names -----------------------------------------------------------------------------------

// Statements that split regions and need nothing between them.
const std::set<std::string_view> kBarriers = {"__syncthreads", "__syncwarp", "__builtin_amdgcn_s_barrier",
                                              "__builtin_amdgcn_wave_barrier"};
// Warp operations the region form computes between two regions (runtime: warp_cuda.h, warp_hip.h).
const std::set<std::string_view> kWarpOps = {
    "__shfl",           "__shfl_up",       "__shfl_down", "__shfl_xor",  "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot",    "__ballot64",  "__any",       "__all",
    "__ballot_sync",    "__any_sync",      "__all_sync",  "__activemask"};
// Other names that wait for other lanes: a kernel using one anywhere keeps the fiber path.
bool other_sync_name(std::string_view n) {
  static const std::set<std::string_view> names = {"__syncthreads_count",
                                                   "__syncthreads_and",
                                                   "__syncthreads_or",
                                                   "__match_any_sync",
                                                   "__match_all_sync",
                                                   "__uni_sync",
                                                   "__builtin_amdgcn_ds_bpermute",
                                                   "__builtin_amdgcn_readfirstlane",
                                                   "__builtin_amdgcn_mbcnt_lo",
                                                   "__builtin_amdgcn_mbcnt_hi",
                                                   "__lane_id",
                                                   "grid_sync",
                                                   "this_grid",
                                                   "tiled_partition",
                                                   "coalesced_threads"};
  return names.count(n) != 0 || n.starts_with("__reduce_");
}
bool sync_word(std::string_view n) { return kBarriers.count(n) || kWarpOps.count(n) || other_sync_name(n); }

// Calls a region may make without risk of reaching a barrier or warp operation: the runtime's
// intrinsics (every `__name` not above), math, atomics, vector constructors, printf.
bool safe_external_call(std::string_view n) {
  static const std::set<std::string_view> names = {
      "sqrt",      "sqrtf",  "rsqrt",  "rsqrtf",   "cbrt",    "cbrtf",   "exp",    "expf",       "exp2",
      "exp2f",     "exp10",  "exp10f", "expm1",    "expm1f",  "log",     "logf",   "log2",       "log2f",
      "log10",     "log10f", "log1p",  "log1pf",   "pow",     "powf",    "sin",    "sinf",       "cos",
      "cosf",      "tan",    "tanf",   "tanh",     "tanhf",   "sinh",    "sinhf",  "cosh",       "coshf",
      "asin",      "asinf",  "acos",   "acosf",    "atan",    "atanf",   "atan2",  "atan2f",     "fabs",
      "fabsf",     "abs",    "labs",   "llabs",    "fmin",    "fminf",   "fmax",   "fmaxf",      "min",
      "max",       "umin",   "umax",   "llmin",    "llmax",   "floor",   "floorf", "ceil",       "ceilf",
      "round",     "roundf", "rint",   "rintf",    "lrint",   "lrintf",  "llrint", "trunc",      "truncf",
      "fma",       "fmaf",   "fmod",   "fmodf",    "erf",     "erff",    "erfc",   "erfcf",      "copysign",
      "copysignf", "isnan",  "isinf",  "isfinite", "signbit", "hypot",   "hypotf", "sincos",     "sincosf",
      "sincospif", "sinpif", "cospif", "normcdff", "normcdf", "ldexp",   "ldexpf", "frexp",      "frexpf",
      "fdividef",  "printf", "assert", "memcpy",   "memset",  "clock64", "fmaxf",  "nearbyintf", "modff",
      "remainderf"};
  if (names.count(n)) return true;
  if (n.starts_with("__")) return !sync_word(n);
  return n.starts_with("make_") || n.starts_with("atomic");
}

bool is_keyword_call(std::string_view n) {
  static const std::set<std::string_view> k = {
      "if",         "for",          "while",         "switch",      "return",
      "sizeof",     "alignof",      "decltype",      "static_cast", "reinterpret_cast",
      "const_cast", "dynamic_cast", "noexcept",      "typeid",      "alignas",
      "float",      "double",       "int",           "unsigned",    "signed",
      "char",       "short",        "long",          "bool",        "void",
      "size_t",     "int8_t",       "uint8_t",       "int16_t",     "uint16_t",
      "int32_t",    "uint32_t",     "int64_t",       "uint64_t",    "uint",
      "half",       "__half",       "static_assert", "defined"};
  return k.count(n) != 0;
}

bool is_type_keyword(std::string_view n) {
  static const std::set<std::string_view> k = {"float",    "double",    "int",      "unsigned", "signed", "char",
                                               "short",    "long",      "bool",     "void",     "auto",   "const",
                                               "volatile", "constexpr", "register", "wchar_t"};
  return k.count(n) != 0;
}

bool is_assign_op(std::string_view t) {
  return t == "=" || t == "+=" || t == "-=" || t == "*=" || t == "/=" || t == "%=" || t == "&=" || t == "|=" ||
         t == "^=" || t == "<<=" || t == ">>=";
}

// ---- statements ------------------------------------------------------------------------------

enum class SK { Simple, Compound, If, For, While, Do, Switch, Return, Break, Continue, Other, Directive, Empty };

struct Stmt {
  SK kind = SK::Simple;
  std::size_t first = 0, last = 0;          // code tokens, inclusive
  std::size_t hopen = npos, hclose = npos;  // the ( ) of if / for / while / switch
  std::vector<Stmt> kids;                   // Compound: its statements; If: then [, else]; loops: body
  bool has_else = false;
};

// A declaration statement, as far as the pass needs one.
struct Declarator {
  std::size_t name = npos;
  std::size_t ptr_first = npos, ptr_last = npos;    // `*`/`&` before the name
  std::size_t dims_first = npos, dims_last = npos;  // `[..][..]` after it
  std::size_t init_first = npos, init_last = npos;  // after `=`
  bool paren_or_brace_init = false;
};
struct Decl {
  std::size_t type_first = 0, type_last = 0;
  std::vector<Declarator> ds;
};

std::optional<Decl> decl_of_stmt(const CodeView& v_, const Stmt& s) {
  auto is = [&](std::size_t i, std::string_view t) { return v_.is(i, t); };
  if (s.kind != SK::Simple) return std::nullopt;
  std::size_t i = s.first;
  const std::size_t end = s.last;  // the `;`
  // The type: specifiers and type keywords, a (qualified, templated) name, then `*`/`&`/cv.
  bool typed = false;
  while (i < end) {
    if ((is(i, "__align__") || is(i, "alignas") || is(i, "__attribute__")) && is(i + 1, "(")) {
      const std::size_t c = v_.match_bracket(i + 1);
      if (c == npos || c >= end) return std::nullopt;
      i = c + 1;
      continue;
    }
    if (is(i, "__shared__") || is(i, "static") || is(i, "extern")) {
      ++i;
      continue;
    }
    if (!(is_type_keyword(v_.text(i)) || is(i, "__restrict__") || is(i, "struct"))) break;
    typed = typed || !(is(i, "const") || is(i, "volatile") || is(i, "constexpr") || is(i, "register"));
    ++i;
  }
  if (!typed) {
    if (!v_.is_identifier(i) || is(i, "return")) return std::nullopt;
    if (is(i, "::")) ++i;
    ++i;
    while (is(i, "::") && v_.is_identifier(i + 1)) i += 2;
    if (is(i, "<")) {
      int depth = 0;
      for (; i < end; ++i) {
        if (is(i, "<")) ++depth;
        else if (is(i, ">")) --depth;
        else if (is(i, ">>")) depth -= 2;
        else if (is(i, "(") || is(i, "[") || is(i, ";") || is(i, "=")) return std::nullopt;
        if (depth <= 0) break;
      }
      if (depth != 0) return std::nullopt;
      ++i;
    }
    while (i < end && (is(i, "const") || is(i, "volatile"))) ++i;
  } else {
    // `unsigned int`, `long long`: more keywords may follow; `const T`: a name may follow.
    while (i < end && v_.is_identifier(i) && !is(i + 1, "=") && !is(i + 1, ";") && !is(i + 1, ",") && !is(i + 1, "[") &&
           !is(i + 1, "(") && !is(i + 1, "{"))
      ++i;
  }
  // Now the declarators; the first must begin with `*`, `&` or a name followed by = ; , [ ( {.
  Decl d;
  d.type_first = s.first;
  d.type_last = i - 1;
  if (d.type_last < d.type_first && !typed) return std::nullopt;
  std::size_t j = i;
  while (j < end) {
    Declarator dc;
    if (is(j, "*") || is(j, "&") || is(j, "&&")) {
      dc.ptr_first = j;
      while (j < end &&
             (is(j, "*") || is(j, "&") || is(j, "&&") || is(j, "const") || is(j, "__restrict__") || is(j, "volatile")))
        ++j;
      dc.ptr_last = j - 1;
    }
    if (!v_.is_identifier(j) || is_type_keyword(v_.text(j))) return std::nullopt;
    dc.name = j++;
    if (is(j, "[")) {
      dc.dims_first = j;
      while (is(j, "[")) {
        const std::size_t c = v_.match_bracket(j);
        if (c == npos || c >= end) return std::nullopt;
        j = c + 1;
      }
      dc.dims_last = j - 1;
    }
    if (is(j, "(") || is(j, "{")) {
      const std::size_t c = v_.match_bracket(j);
      if (c == npos || c >= end) return std::nullopt;
      dc.paren_or_brace_init = true;
      j = c + 1;
    } else if (is(j, "=")) {
      dc.init_first = j + 1;
      std::size_t k = j + 1;
      for (; k < end; ++k) {
        if (is(k, "(") || is(k, "[") || is(k, "{")) {
          const std::size_t c = v_.match_bracket(k);
          if (c == npos || c >= end) return std::nullopt;
          k = c;
          continue;
        }
        if (is(k, ",")) break;
        if (is(k, "<")) {
          // a template argument list may hold commas (`std::pair<int, int> p = ...` is rare in
          // kernels): an initializer with `<` and `,` is not taken apart
          for (std::size_t m = k; m < end; ++m)
            if (is(m, ",")) return std::nullopt;
        }
      }
      if (k == j + 1) return std::nullopt;
      dc.init_last = k - 1;
      if (is(dc.init_first, "{")) dc.paren_or_brace_init = true;
      j = k;
    }
    d.ds.push_back(dc);
    if (j == end) break;
    if (!is(j, ",")) return std::nullopt;
    ++j;
  }
  if (d.ds.empty()) return std::nullopt;
  // A single name followed by `(` is a call, not a declaration (`f(x);` was ruled out above by
  // needing a type first, but `T(x)` is not a form we read).
  return d;
}

class Pass {
 public:
  Pass(std::string_view text, std::string display) : v_(text), display_(std::move(display)) {
    for (char c : display_) {
      if (c == '"' || c == '\\') quoted_ += '\\';
      quoted_ += c;
    }
  }
  RegionOutcome run();
  // One round of inlining: each call of a function of this file that reaches a barrier or warp
  // operation, standing as a statement in a kernel (`f(a);`, `x = f(a);`, `T x = f(a);`), is
  // replaced by the function's body (names prefixed, on the call's line). Returns whether any was.
  bool inline_calls(std::string& out, std::map<int, std::string>& originals, int& next_id);
  std::map<int, std::string> originals_;  // kernel ordinal -> body as written, when calls were inlined

 private:
  CodeView v_;
  std::string display_, quoted_;
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> funcs_;  // name -> body ranges
  std::map<std::string, std::pair<std::size_t, std::size_t>> macros_;              // name -> body tokens
  std::map<std::string, bool> safe_memo_;
  std::set<std::string> block_objs_;  // names declared as cooperative groups' thread_block
  std::set<std::string> in_progress_;
  RegionOutcome out_;

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
  std::size_t skip_to_semicolon(std::size_t i, std::size_t end) const;
  std::optional<Stmt> parse(std::size_t& i, std::size_t end) const;
  bool parse_list(std::size_t from, std::size_t to, std::vector<Stmt>& out) const;
  void collect_functions();
  bool function_safe(const std::string& name);
  bool range_safe(std::size_t first, std::size_t last, std::string* why);
  std::size_t template_call_paren(std::size_t id) const;
  void kernel(std::size_t kw, int ordinal,
              std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>>& edits);
  bool kernel_body(std::size_t kw, std::size_t& params_open, std::size_t& open, std::size_t& close) const;
  std::string mapped(std::size_t first, std::size_t last, const std::map<std::string, std::string>& ren) const;
  std::optional<std::string> inline_one(const struct Stmt& s, std::map<std::string, std::string>& types, int id);
};

std::size_t Pass::skip_to_semicolon(std::size_t i, std::size_t end) const {
  for (; i < end; ++i) {
    if (v_.in_directive(i)) continue;
    if (is(i, "(") || is(i, "[") || is(i, "{")) {
      const std::size_t c = v_.match_bracket(i);
      if (c == npos || c >= end) return npos;
      i = c;
      continue;
    }
    if (is(i, ";")) return i;
  }
  return npos;
}

std::optional<Stmt> Pass::parse(std::size_t& i, std::size_t end) const {
  Stmt s;
  s.first = i;
  if (v_.in_directive(i)) {
    s.kind = SK::Directive;
    s.last = v_.directive_last(i);
    i = s.last + 1;
    return s;
  }
  auto body_after = [&](std::size_t j) -> bool {
    std::size_t k = j;
    auto b = parse(k, end);
    if (!b) return false;
    s.kids.push_back(std::move(*b));
    i = k;
    return true;
  };
  if (is(i, ";")) {
    s.kind = SK::Empty;
    s.last = i++;
    return s;
  }
  if (is(i, "{")) {
    s.kind = SK::Compound;
    s.last = v_.match_bracket(i);
    if (s.last == npos || s.last >= end) return std::nullopt;
    if (!parse_list(i + 1, s.last, s.kids)) return std::nullopt;
    i = s.last + 1;
    return s;
  }
  if (is(i, "if") || is(i, "for") || is(i, "while") || is(i, "switch")) {
    s.kind = is(i, "if") ? SK::If : is(i, "for") ? SK::For : is(i, "while") ? SK::While : SK::Switch;
    std::size_t j = i + 1;
    if (s.kind == SK::If && is(j, "constexpr")) ++j;
    if (!is(j, "(")) return std::nullopt;
    s.hopen = j;
    s.hclose = v_.match_bracket(j);
    if (s.hclose == npos || s.hclose >= end) return std::nullopt;
    if (!body_after(s.hclose + 1)) return std::nullopt;
    if (s.kind == SK::If && i < end && is(i, "else")) {
      s.has_else = true;
      if (!body_after(i + 1)) return std::nullopt;
    }
    s.last = i - 1;
    return s;
  }
  if (is(i, "do")) {
    s.kind = SK::Do;
    if (!body_after(i + 1)) return std::nullopt;
    const std::size_t semi = skip_to_semicolon(i, end);
    if (semi == npos) return std::nullopt;
    s.last = semi;
    i = semi + 1;
    return s;
  }
  if (is(i, "return") || is(i, "break") || is(i, "continue")) {
    s.kind = is(i, "return") ? SK::Return : is(i, "break") ? SK::Break : SK::Continue;
  } else if (is(i, "goto") || is(i, "try") || is(i, "case") || is(i, "default") || is(i, "asm") || is(i, "__asm__") ||
             (v_.is_identifier(i) && is(i + 1, ":"))) {
    s.kind = SK::Other;
    if (is(i, "try")) return std::nullopt;
    if (is(i, "case") || is(i, "default") || is(i + 1, ":")) {
      // a label: the statement is the label alone
      std::size_t j = i;
      while (j < end && !is(j, ":")) ++j;
      s.last = j;
      i = j + 1;
      return s;
    }
  }
  const std::size_t semi = skip_to_semicolon(i, end);
  if (semi == npos) return std::nullopt;
  s.last = semi;
  i = semi + 1;
  return s;
}

bool Pass::parse_list(std::size_t from, std::size_t to, std::vector<Stmt>& out) const {
  std::size_t i = from;
  while (i < to) {
    auto s = parse(i, to);
    if (!s) return false;
    out.push_back(std::move(*s));
  }
  return true;
}

// Function definitions (name -> body) and macros of this file.
void Pass::collect_functions() {
  for (std::size_t i = 0; i + 1 < v_.code_size(); ++i)
    if (is(i, "thread_block") && v_.is_identifier(i + 1)) block_objs_.insert(tx(i + 1));
  for (std::size_t i = 0; i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) {
      if (is(i, "#") && is(i + 1, "define") && v_.is_identifier(i + 2)) {
        const std::size_t last = v_.directive_last(i);
        std::size_t b = i + 3;
        if (is(b, "(") && v_.code(b).begin == v_.code(i + 2).end) {
          const std::size_t c = v_.match_bracket(b);
          b = c == npos ? last + 1 : c + 1;
        }
        macros_[tx(i + 2)] = {b, last};
        i = last;
      }
      continue;
    }
    if (!is(i, "{")) continue;
    // `name ( ... ) [const|noexcept|attributes]* {` at any depth: a function (or a constructor) body.
    std::size_t j = i;
    while (j > 0 && (is(j - 1, "const") || is(j - 1, "noexcept") || is(j - 1, "override"))) --j;
    if (j == 0 || !is(j - 1, ")")) continue;
    const std::size_t open = v_.partner(j - 1);
    if (open == npos || open == 0 || !v_.is_identifier(open - 1)) continue;
    const std::string name = tx(open - 1);
    if (name == "if" || name == "for" || name == "while" || name == "switch" || name == "catch") continue;
    const std::size_t close = v_.match_bracket(i);
    if (close == npos) continue;
    funcs_[name].push_back({i, close});
  }
}

// The `(` of `name<...>(` at identifier `id`, or npos.
std::size_t Pass::template_call_paren(std::size_t id) const {
  if (!is(id + 1, "<")) return npos;
  int depth = 0;
  for (std::size_t j = id + 1; j < v_.code_size() && j < id + 64; ++j) {
    if (is(j, "<")) ++depth;
    else if (is(j, ">")) --depth;
    else if (is(j, ">>")) depth -= 2;
    else if (is(j, ";") || is(j, "{") || is(j, "}") || is(j, "&&") || is(j, "||") || is(j, "=")) return npos;
    else if (is(j, "(") || is(j, "[")) {
      const std::size_t c = v_.match_bracket(j);
      if (c == npos) return npos;
      j = c;
      continue;
    }
    if (depth == 0) return is(j + 1, "(") ? j + 1 : npos;
    if (depth < 0) return npos;
  }
  return npos;
}

bool Pass::function_safe(const std::string& name) {
  if (auto it = safe_memo_.find(name); it != safe_memo_.end()) return it->second;
  if (in_progress_.count(name)) return false;  // recursion: unsure
  in_progress_.insert(name);
  bool ok = true;
  if (auto f = funcs_.find(name); f != funcs_.end()) {
    for (auto [b, e] : f->second) ok = ok && range_safe(b, e, nullptr);
  } else if (auto m = macros_.find(name); m != macros_.end()) {
    ok = m->second.first > m->second.second || range_safe(m->second.first, m->second.second, nullptr);
  } else {
    ok = safe_external_call(name);
  }
  in_progress_.erase(name);
  safe_memo_[name] = ok;
  return ok;
}

// No barrier, warp operation or call that might reach one in code tokens [first, last].
bool Pass::range_safe(std::size_t first, std::size_t last, std::string* why) {
  for (std::size_t i = first; i <= last && i < v_.code_size(); ++i) {
    if (!v_.is_identifier(i)) continue;
    const std::string n = tx(i);
    if (sync_word(n)) {
      if (why) *why = n;
      return false;
    }
    if (macros_.count(n) && !function_safe(n)) {
      if (why) *why = n + " (a macro that reaches a barrier or warp operation)";
      return false;
    }
    const bool member = v_.is_member_name(i);
    const bool call = is(i + 1, "(") || template_call_paren(i) != npos;
    if (!call || is_keyword_call(n)) continue;
    if (member) {
      static const std::set<std::string_view> block_members = {
          "thread_rank", "size", "num_threads", "group_index", "thread_index", "group_dim", "dim_threads", "is_valid"};
      if (i >= 2 && v_.is_identifier(i - 2) && block_objs_.count(tx(i - 2)) && block_members.count(n)) continue;
      if (why) *why = "." + n + "() (a member call)";
      return false;
    }
    if (i > 0 && is(i - 1, "::")) {
      // qualified: std:: and the runtime's ::w64:: are safe
      std::size_t q = i - 1;
      while (q >= 2 && is(q - 2, "::") && v_.is_identifier(q - 1)) q -= 2;
      // the leftmost qualifier: `std::f`, `::w64::f` (the driver's own rewrites)
      const bool std_ns = (q >= 1 && (is(q - 1, "std") || is(q - 1, "w64"))) || is(q + 1, "std") || is(q + 1, "w64") ||
                          n == "this_thread_block";
      if (!std_ns) {
        if (why) *why = n + "() (a qualified call)";
        return false;
      }
      continue;
    }
    if (funcs_.count(n) || macros_.count(n)) {
      if (!function_safe(n)) {
        if (why) *why = n + "() (it reaches a barrier or warp operation; functions are not split)";
        return false;
      }
      continue;
    }
    if (!safe_external_call(n)) {
      if (why) *why = n + "() (not defined in this file)";
      return false;
    }
  }
  return true;
}

// ---- one kernel ------------------------------------------------------------------------------

struct Fail {
  std::string why;
  std::size_t at;
};

// A warp operation inside a statement that splits there.
struct OpUse {
  std::size_t name = 0, open = 0, close = 0;  // the call: name ( ... )
  int slot = 0;
};

// What the region form of a kernel is made of, in order.
struct Piece {
  enum Kind { Stmt, Put, Take, Text } kind = Stmt;
  const struct Stmt* s = nullptr;
  std::vector<OpUse> ops;
  std::string text;  // Text: written as is, with the line of `at`
  std::size_t at = 0;
};
struct Region {
  std::string guard;  // lanes that run it: a condition over per-lane flags (empty: all)
  std::vector<Piece> pieces;
  std::set<std::string> names;  // identifiers its code names
  bool lambda = false;          // holds a return: runs inside [&]{ }() per lane
};
struct Node {
  enum Kind { Reg, Run, Open, Close, Uni } kind = Reg;
  int region = -1;
  std::vector<int> slots;
  std::string head;  // Open: `for (...) {`, `while (...) {`, `if (...) {`, `} else {`; Uni: a declaration
};

}  // namespace

namespace {

// Everything about one kernel; a Fail thrown anywhere keeps the fiber path.
class Splitter {
 public:
  Splitter(const CodeView& v, std::function<bool(std::size_t, std::size_t, std::string*)> safe,
           std::set<std::string> params, std::size_t body_open, std::size_t body_close)
      : v_(v), safe_(std::move(safe)), params_(std::move(params)), open_(body_open), close_(body_close) {}

  // The region-form code (the statements of `if (::w64::rg::enter()) { ... }`), or a Fail.
  std::string build(const std::vector<Stmt>& body, const std::string& quoted);
  std::string quoted_;

 private:
  const CodeView& v_;
  std::function<bool(std::size_t, std::size_t, std::string*)> safe_;
  std::set<std::string> params_;
  std::size_t open_, close_;
  std::vector<Region> regions_;
  std::vector<Node> nodes_;
  std::vector<const Stmt*> hoisted_;  // __shared__ and constant declarations
  std::set<std::string> hoisted_names_;
  std::set<std::string> loop_vars_;  // of the loops and ifs between regions
  std::set<std::string> all_loop_vars_;
  std::set<std::string> shared_names_;
  std::set<std::string> shared_arrays_;  // their address is alike for every lane; a scalar's value is not
  std::map<std::string, std::vector<std::pair<const Stmt*, int>>> decls_;  // name -> (statement, region)
  std::set<std::string> declared_anywhere_;
  int slots_ = 0;
  int cur_ = -1;                         // region being filled
  std::vector<std::string> preds_;       // conditions of the ifs the lanes diverged in
  std::set<std::string> uniform_names_;  // locals every lane computes alike, declared between regions
  std::set<std::string> block_names_;    // of them, cooperative groups' thread_block objects
  int flags_ = 0;                        // per-lane flags of those conditions
  std::deque<std::vector<Stmt>> owned_;  // one-statement bodies as lists (pieces point into them)
  const std::vector<Stmt>& one(const Stmt& s) {
    owned_.push_back({s});
    return owned_.back();
  }

  bool is(std::size_t i, std::string_view t) const { return v_.is(i, t); }
  std::string tx(std::size_t i) const { return std::string(v_.text(i)); }
  [[noreturn]] void fail(std::string why, std::size_t at) const { throw Fail{std::move(why), at}; }

  bool has_barrier(const Stmt& s) const {
    for (std::size_t i = s.first; i <= s.last; ++i)
      if (is(i, "__syncthreads") || is(i, "__builtin_amdgcn_s_barrier") || is(i, "__syncthreads_count") ||
          is(i, "__syncthreads_and") || is(i, "__syncthreads_or") || (is(i, "sync") && is(i + 1, "(")))
        return true;
    return false;
  }
  bool contains_sync(const Stmt& s) const {
    for (std::size_t i = s.first; i <= s.last; ++i)
      if (v_.is_identifier(i) && (sync_word(v_.text(i)) || (is(i, "sync") && is(i + 1, "(")))) return true;
    return !safe_(s.first, s.last, nullptr);
  }
  // `cg::sync(b);`, `b.sync();` for a thread_block b: a block barrier.
  bool block_sync(const Stmt& s) const {
    std::size_t i = s.first;
    if (v_.is_identifier(i) && block_names_.count(tx(i)) && is(i + 1, ".") && is(i + 2, "sync") && is(i + 3, "(") &&
        is(i + 4, ")") && i + 5 == s.last)
      return true;
    while (v_.is_identifier(i) && is(i + 1, "::")) i += 2;
    if (is(i, "::")) ++i;
    return is(i, "sync") && is(i + 1, "(") && v_.is_identifier(i + 2) && block_names_.count(tx(i + 2)) &&
           is(i + 3, ")") && i + 4 == s.last;
  }
  // Every lane computes code tokens [first, last] alike: parameters, uniform locals, constants,
  // the built-ins of the block, math; no memory read, no threadIdx, no side effect.
  bool uniform_expr(std::size_t first, std::size_t last) const {
    for (std::size_t i = first; i <= last; ++i) {
      const std::string_view t = v_.text(i);
      if (is(i, "[") || is(i, "->") || is(i, "++") || is(i, "--") || is_assign_op(t)) return false;
      if ((is(i, "*") || is(i, "&")) &&
          (i == first || !(v_.is_identifier(i - 1) || v_.is_number(i - 1) || is(i - 1, ")") || is(i - 1, "]"))))
        return false;
      if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) {
        if (v_.is_identifier(i) && is(i + 1, "(") && !safe_external_call(t) && t != "this_thread_block") return false;
        continue;
      }
      const std::string n(t);
      if (n == "threadIdx") return false;
      if (is(i + 1, "(")) {
        if (!safe_external_call(n) && !is_keyword_call(n)) return false;
        continue;
      }
      if (params_.count(n) || uniform_names_.count(n) || loop_vars_.count(n) || shared_arrays_.count(n)) continue;
      if (declared_anywhere_.count(n)) return false;
    }
    return true;
  }
  Region& region() {
    if (cur_ < 0) {
      regions_.emplace_back();
      for (const std::string& p : preds_) regions_.back().guard += (regions_.back().guard.empty() ? "" : " && ") + p;
      cur_ = static_cast<int>(regions_.size()) - 1;
      Node n;
      n.kind = Node::Reg;
      n.region = cur_;
      nodes_.push_back(n);
    }
    return regions_[static_cast<std::size_t>(cur_)];
  }
  void close_region() { cur_ = -1; }
  void names_of(std::size_t first, std::size_t last, std::set<std::string>& into) const {
    for (std::size_t i = first; i <= last; ++i) {
      if (!v_.is_identifier(i) || v_.in_directive(i)) continue;
      if (v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
      into.insert(tx(i));
    }
  }
  std::optional<Decl> as_decl(const Stmt& s) const;
  void check_escapes(const Stmt& s, bool in_loop, bool in_switch) const;
  void check_uniform(std::size_t first, std::size_t last, const std::set<std::string>& own) const;
  void check_not_modified(const std::string& name, std::size_t first, std::size_t last) const;
  void walk(const std::vector<Stmt>& list, bool top);
  void add_plain(const Stmt& s);
  std::string text_with(std::size_t first, std::size_t last, const std::vector<OpUse>& ops, bool take) const;
  std::string line(std::size_t ci, const std::string& quoted) const {
    return "\n#line " + std::to_string(v_.code(ci).line) + " \"" + quoted + "\"\n";
  }
  std::string piece_text(const Piece& p, const std::set<std::string>& promoted, const std::string& quoted) const;
};

std::optional<Decl> Splitter::as_decl(const Stmt& s) const { return decl_of_stmt(v_, s); }

// `return`, `break`, `continue` that would leave a region's lane loop; goto and labels.
void Splitter::check_escapes(const Stmt& s, bool in_loop, bool in_switch) const {
  switch (s.kind) {
    case SK::Break:
      if (!in_loop && !in_switch) fail("`break` out of a region", s.first);
      return;
    case SK::Continue:
      if (!in_loop) fail("`continue` out of a region", s.first);
      return;
    case SK::Other: fail("goto, a label or assembly", s.first);
    case SK::For:
    case SK::While:
    case SK::Do:
      for (const Stmt& k : s.kids) check_escapes(k, true, in_switch);
      return;
    case SK::Switch:
      for (const Stmt& k : s.kids) check_escapes(k, in_loop, true);
      return;
    default:
      for (const Stmt& k : s.kids) check_escapes(k, in_loop, in_switch);
      return;
  }
}

// A loop or if header between regions: every lane must compute it alike.
void Splitter::check_uniform(std::size_t first, std::size_t last, const std::set<std::string>& own) const {
  std::string why;
  if (!safe_(first, last, &why)) fail("a loop or if header between barriers calls " + why, first);
  for (std::size_t i = first; i <= last; ++i) {
    if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const std::string n = tx(i);
    if (n == "threadIdx") fail("a loop or if header between barriers reads threadIdx", i);
    if (own.count(n) || loop_vars_.count(n) || hoisted_names_.count(n) || uniform_names_.count(n)) continue;
    if (declared_anywhere_.count(n))
      fail("a loop or if header between barriers reads the local `" + n + "` (lanes may differ)", i);
    if (is(i + 1, "(") && !safe_external_call(n) && !is_keyword_call(n))
      fail("a loop or if header between barriers calls " + n + "()", i);
  }
}

// `name` is not assigned, incremented or has its address taken in code tokens [first, last].
void Splitter::check_not_modified(const std::string& name, std::size_t first, std::size_t last) const {
  for (std::size_t i = first; i <= last; ++i) {
    if (!is(i, name) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const bool after = i + 1 <= last + 1 && (is_assign_op(v_.text(i + 1)) || is(i + 1, "++") || is(i + 1, "--"));
    const bool before = i > 0 && (is(i - 1, "++") || is(i - 1, "--"));
    bool address = false;
    if (i > 0 && is(i - 1, "&")) {
      const std::size_t p = i - 1;
      address = p == 0 || !(v_.is_identifier(p - 1) || v_.is_number(p - 1) || is(p - 1, ")") || is(p - 1, "]"));
    }
    if (after || before || address) fail("`" + name + "` is shared by the lanes in region form and is changed here", i);
  }
}

void Splitter::add_plain(const Stmt& s) {
  Region& r = region();
  Piece p;
  p.kind = Piece::Stmt;
  p.s = &s;
  r.pieces.push_back(p);
  names_of(s.first, s.last, r.names);
  if (auto d = as_decl(s))
    for (const Declarator& dc : d->ds) decls_[tx(dc.name)].push_back({&s, cur_});
}

void Splitter::walk(const std::vector<Stmt>& list, bool /*top*/) {
  for (const Stmt& s : list) {
    if (s.kind == SK::Directive) {
      if (!is(s.first + 1, "pragma")) fail("a preprocessor directive inside the kernel", s.first);
      continue;  // #pragma unroll and kin: hints, dropped from the region form
    }
    const bool sync = contains_sync(s);
    // The barrier statements: `__syncthreads();`
    if (s.kind == SK::Simple && block_sync(s)) {
      if (!preds_.empty()) fail("a barrier under a condition that differs between lanes", s.first);
      close_region();
      continue;
    }
    if (s.kind == SK::Simple && v_.is_identifier(s.first) && kBarriers.count(v_.text(s.first)) &&
        is(s.first + 1, "(") && v_.match_bracket(s.first + 1) + 1 == s.last) {
      if (!preds_.empty() && (is(s.first, "__syncthreads") || is(s.first, "__builtin_amdgcn_s_barrier")))
        fail("a barrier under a condition that differs between lanes", s.first);
      if (is(s.first, "__syncwarp") && !is(s.first + 2, ")")) {
        // __syncwarp(mask): the mask is checked per lane, as on the fiber path
        OpUse op{s.first, s.first + 1, s.last - 1, slots_++};
        Piece put;
        put.kind = Piece::Put;
        put.ops.push_back(op);
        region().pieces.push_back(put);
        names_of(s.first, s.last, region().names);
        close_region();
        Node n;
        n.kind = Node::Run;
        n.slots = {op.slot};
        nodes_.push_back(n);
        continue;
      }
      close_region();
      continue;
    }
    if (!sync) {
      if (s.kind == SK::Simple) {
        // __shared__ and constant locals go before the regions (one object, computed once)
        bool shared = false;
        for (std::size_t i = s.first; i <= s.last; ++i) shared = shared || is(i, "__shared__");
        if (shared) {
          // static storage: the same object wherever it is declared, so it moves before the
          // regions (names must then be distinct: inlined functions' are prefixed)
          auto d = as_decl(s);
          if (!d) fail("a __shared__ declaration the region pass does not read", s.first);
          for (const Declarator& dc : d->ds) {
            if (hoisted_names_.count(tx(dc.name)))
              fail("two __shared__ declarations named `" + tx(dc.name) + "`", s.first);
            hoisted_names_.insert(tx(dc.name));
            shared_names_.insert(tx(dc.name));
            if (dc.dims_first != npos) shared_arrays_.insert(tx(dc.name));
          }
          hoisted_.push_back(&s);
          continue;
        }
        for (std::size_t i = s.first; i <= s.last; ++i)
          if (is(i, "static") || is(i, "typedef") || is(i, "using") || is(i, "thread_local") || is(i, "class") ||
              is(i, "enum") || is(i, "union"))
            fail("a static, typedef, using or type declaration in the kernel body", i);
        if (auto d = as_decl(s); d && preds_.empty() && d->ds.size() == 1) {
          // a local every lane computes alike and never changes: one copy, declared between regions
          const Declarator& dc = d->ds[0];
          bool uniform = dc.init_first != npos && dc.dims_first == npos && !dc.paren_or_brace_init;
          for (std::size_t i = d->type_first; uniform && i <= d->type_last; ++i)
            uniform = !is(i, "&") && !is(i, "auto") && !is(i, "decltype");
          if (uniform && dc.ptr_first != npos)
            for (std::size_t i = dc.ptr_first; uniform && i <= dc.ptr_last; ++i) uniform = !is(i, "&") && !is(i, "&&");
          const std::string name = tx(dc.name);
          if (uniform)
            uniform = uniform_expr(dc.init_first, dc.init_last) && !decls_.count(name) && !uniform_names_.count(name);
          if (uniform) {
            try {
              check_not_modified(name, s.last + 1, close_);
            } catch (const Fail&) {
              uniform = false;
            }
          }
          if (uniform) {
            Node u;
            u.kind = Node::Uni;
            u.head = line(s.first, quoted_) + std::string(v_.span_text(s.first, s.last));
            if (cur_ >= 0) {
              // before the region being filled (its code does not depend on it)
              for (std::size_t k = 0; k < nodes_.size(); ++k)
                if (nodes_[k].kind == Node::Reg && nodes_[k].region == cur_) {
                  nodes_.insert(nodes_.begin() + static_cast<std::ptrdiff_t>(k), u);
                  break;
                }
            } else {
              nodes_.push_back(u);
            }
            uniform_names_.insert(name);
            for (std::size_t i = d->type_first; i <= d->type_last; ++i)
              if (is(i, "thread_block")) block_names_.insert(name);
            continue;
          }
        }
      }
      if (s.kind == SK::Compound || s.kind == SK::If || s.kind == SK::For || s.kind == SK::While || s.kind == SK::Do ||
          s.kind == SK::Switch || s.kind == SK::Simple || s.kind == SK::Empty) {
        std::string why;
        if (!safe_(s.first, s.last, &why)) fail("a statement calls " + why, s.first);
        check_escapes(s, false, false);
      }
      if (s.kind == SK::Break || s.kind == SK::Continue || s.kind == SK::Other)
        fail("break, continue or goto between barriers", s.first);
      if (s.kind == SK::Return) {
        // only after the last barrier of the kernel (checked when the walk is over)
        region().lambda = true;
      }
      add_plain(s);
      if (s.kind != SK::Simple && s.kind != SK::Return) {
        // returns nested in it make the region a lambda
        std::vector<const Stmt*> todo = {&s};
        while (!todo.empty()) {
          const Stmt* t = todo.back();
          todo.pop_back();
          if (t->kind == SK::Return) region().lambda = true;
          for (const Stmt& k : t->kids) todo.push_back(&k);
        }
      }
      continue;
    }
    // A statement with a barrier or warp operation in it.
    if (s.kind == SK::Compound) {
      walk(s.kids, false);
      continue;
    }
    if (s.kind == SK::For || s.kind == SK::While || s.kind == SK::If) {
      std::set<std::string> own;
      std::size_t hfirst = s.hopen + 1, hlast = s.hclose - 1;
      if (s.kind == SK::For) {
        // `for (T v = init; cond; step)`: v is the loop's own (computed alike by every lane)
        std::size_t semi = hfirst;
        while (semi < s.hclose && !is(semi, ";")) ++semi;
        Stmt init;
        init.kind = SK::Simple;
        init.first = hfirst;
        init.last = semi;
        if (semi > hfirst) {
          if (auto d = as_decl(init)) {
            for (const Declarator& dc : d->ds) {
              own.insert(tx(dc.name));
              check_not_modified(tx(dc.name), s.kids[0].first, s.kids[0].last);
            }
          }
        }
      }
      if (s.kind == SK::If && hlast >= hfirst) {
        std::string why;
        if (!safe_(hfirst, hlast, &why)) fail("an if condition calls " + why, hfirst);
        bool uniform = true;
        try {
          check_uniform(hfirst, hlast, own);
        } catch (const Fail& f) {
          uniform = false;
          why = f.why;
        }
        if (!uniform) {
          // lanes may differ: warp operations inside run for the lanes that took the branch
          // (their active mask), as on the fiber path; a barrier there is not split
          if (has_barrier(s)) fail("a barrier under a condition that differs between lanes", s.first);
          const std::string flag = "w64_c" + std::to_string(flags_++);
          Piece p;
          p.kind = Piece::Text;
          p.at = hfirst;
          p.text = flag + ".p[w64_l] = (" + std::string(v_.span_text(hfirst, hlast)) + ");";
          region().pieces.push_back(p);
          names_of(hfirst, hlast, region().names);
          close_region();
          preds_.push_back(flag + ".p[w64_l]");
          walk(s.kids[0].kind == SK::Compound ? s.kids[0].kids : one(s.kids[0]), false);
          close_region();
          preds_.pop_back();
          if (s.has_else) {
            preds_.push_back("!" + flag + ".p[w64_l]");
            walk(s.kids[1].kind == SK::Compound ? s.kids[1].kids : one(s.kids[1]), false);
            close_region();
            preds_.pop_back();
          }
          continue;
        }
      } else if (hlast >= hfirst) {
        check_uniform(hfirst, hlast, own);
      }
      for (const std::string& n : own) {
        if (loop_vars_.count(n) || params_.count(n) || hoisted_names_.count(n))
          fail("the loop variable `" + n + "` shadows another name", s.first);
        all_loop_vars_.insert(n);
      }
      close_region();
      Node o;
      o.kind = Node::Open;
      o.head = std::string(s.kind == SK::For     ? "for "
                           : s.kind == SK::While ? "while "
                                                 : "if ") +
               std::string(v_.span_text(s.hopen, s.hclose)) + " {";
      if (s.kind == SK::If && is(s.first + 1, "constexpr")) o.head = "if constexpr " + o.head.substr(3);
      nodes_.push_back(o);
      for (const std::string& n : own) loop_vars_.insert(n);
      const std::vector<Stmt>& b = s.kids[0].kind == SK::Compound ? s.kids[0].kids : one(s.kids[0]);
      // loops: a break or continue of this loop at statement level would leave the lane loop
      walk(b, false);
      close_region();
      if (s.kind == SK::If && s.has_else) {
        Node e;
        e.kind = Node::Open;
        e.head = "} else {";
        nodes_.push_back(e);
        walk(s.kids[1].kind == SK::Compound ? s.kids[1].kids : one(s.kids[1]), false);
        close_region();
      }
      for (const std::string& n : own) loop_vars_.erase(n);
      Node c;
      c.kind = Node::Close;
      nodes_.push_back(c);
      continue;
    }
    if (s.kind != SK::Simple) fail("a barrier or warp operation inside a do, switch or return", s.first);
    // A simple statement with warp operations: split it at them.
    std::vector<OpUse> ops;
    for (std::size_t i = s.first; i <= s.last; ++i) {
      if (!v_.is_identifier(i)) continue;
      const std::string_view n = v_.text(i);
      if (!sync_word(n)) continue;
      if (!kWarpOps.count(n)) fail(std::string(n) + " is not split (only shuffles and votes are)", i);
      if (v_.is_member_name(i) || (i > 0 && is(i - 1, "::")) || !is(i + 1, "(")) fail("a warp operation's form", i);
      OpUse op{i, i + 1, v_.match_bracket(i + 1), 0};
      for (std::size_t k = op.open + 1; k < op.close; ++k)
        if (v_.is_identifier(k) && sync_word(v_.text(k))) fail("nested warp operations", k);
      ops.push_back(op);
      i = op.close;
    }
    for (std::size_t i = s.first; i <= s.last; ++i)
      if (is(i, "?") || is(i, "&&") || is(i, "||") || is(i, "[")) {
        if (is(i, "[")) {
          // a lambda in the statement (`[&](...)`) could hold anything: not split
          if (i == s.first || is(i - 1, "=") || is(i - 1, "(") || is(i - 1, ","))
            fail("a lambda next to a warp operation", i);
          continue;
        }
        fail("a warp operation in a statement that evaluates conditionally (?:, &&, ||)", i);
      }
    std::string why;
    {
      // the rest of the statement must be safe
      std::size_t from = s.first;
      for (const OpUse& op : ops) {
        if (op.name > from && !safe_(from, op.name - 1, &why)) fail("a statement calls " + why, from);
        from = op.close + 1;
      }
      if (from <= s.last && !safe_(from, s.last, &why)) fail("a statement calls " + why, from);
      for (const OpUse& op : ops)
        if (op.close > op.open + 1 && !safe_(op.open + 1, op.close - 1, &why))
          fail("a warp operation's argument calls " + why, op.open);
    }
    for (OpUse& op : ops) op.slot = slots_++;
    Piece put;
    put.kind = Piece::Put;
    for (const OpUse& o : ops) put.ops.push_back(o);
    put.s = &s;
    Region& a = region();
    a.pieces.push_back(put);
    for (const OpUse& op : ops) names_of(op.open, op.close, a.names);
    close_region();
    Node n;
    n.kind = Node::Run;
    for (const OpUse& op : ops) n.slots.push_back(op.slot);
    nodes_.push_back(n);
    // `OP(args);` alone needs nothing after the run
    if (ops.size() == 1 && ops[0].name == s.first && ops[0].close + 1 == s.last) continue;
    Piece take;
    take.kind = Piece::Take;
    for (const OpUse& o : ops) take.ops.push_back(o);
    take.s = &s;
    Region& b = region();
    b.pieces.push_back(take);
    names_of(s.first, s.last, b.names);
    if (auto d = as_decl(s))
      for (const Declarator& dc : d->ds) decls_[tx(dc.name)].push_back({&s, cur_});
  }
}

// Code tokens [first, last] as written, each warp operation replaced by its result (take) .
std::string Splitter::text_with(std::size_t first, std::size_t last, const std::vector<OpUse>& ops, bool take) const {
  std::string r;
  std::size_t from = first;
  for (const OpUse& op : ops) {
    if (op.name < first || op.close > last) continue;
    if (op.name > from) r += std::string(v_.span_text(from, op.name - 1)) + " ";
    if (take)
      r += "w64_s" + std::to_string(op.slot) + ".take<decltype(" + std::string(v_.span_text(op.name, op.close)) +
           ")>(w64_l)";
    from = op.close + 1;
  }
  if (from <= last) r += std::string(v_.span_text(from, last));
  return r;
}

std::string Splitter::piece_text(const Piece& p, const std::set<std::string>& promoted,
                                 const std::string& quoted) const {
  if (p.kind == Piece::Text) return line(p.at, quoted) + p.text;
  if (p.kind == Piece::Put) {
    std::string r;
    for (const OpUse& op : p.ops) {
      r += line(op.name, quoted) + "::w64::rg::" + tx(op.name) + "(w64_s" + std::to_string(op.slot) + ", w64_l";
      if (op.close > op.open + 1) r += ", " + std::string(v_.span_text(op.open + 1, op.close - 1));
      r += ");";
    }
    return r;
  }
  const Stmt& s = *p.s;
  const bool take = p.kind == Piece::Take;
  if (auto d = as_decl(s)) {
    bool any = false;
    for (const Declarator& dc : d->ds) any = any || promoted.count(tx(dc.name));
    if (any) {
      std::string r = line(s.first, quoted);
      bool first = true;
      for (const Declarator& dc : d->ds) {
        if (dc.init_first == npos) continue;
        r += (first ? "" : ", ") + tx(dc.name) + " = " + text_with(dc.init_first, dc.init_last, p.ops, take);
        first = false;
      }
      return r + ";";
    }
  }
  return line(s.first, quoted) + text_with(s.first, s.last, p.ops, take);
}

std::string Splitter::build(const std::vector<Stmt>& body, const std::string& quoted) {
  quoted_ = quoted;
  // every name a declaration anywhere in the body introduces (headers may not read them)
  std::vector<const Stmt*> todo;
  for (const Stmt& s : body) todo.push_back(&s);
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (auto d = as_decl(*s))
      for (const Declarator& dc : d->ds) declared_anywhere_.insert(tx(dc.name));
    if (s->kind == SK::For) {
      std::size_t semi = s->hopen + 1;
      while (semi < s->hclose && !is(semi, ";")) ++semi;
      Stmt init;
      init.first = s->hopen + 1;
      init.last = semi;
      if (semi > init.first)
        if (auto d = as_decl(init))
          for (const Declarator& dc : d->ds) declared_anywhere_.insert(tx(dc.name));
    }
    for (const Stmt& k : s->kids) todo.push_back(&k);
  }
  // the kernel's parameters are one copy for all lanes in region form
  for (const std::string& p : params_) check_not_modified(p, open_, close_);

  walk(body, true);
  if (slots_ == 0 && nodes_.size() <= 1) fail("", open_);  // nothing to split: the plain loop serves

  // returns: only in the last region of the kernel, after every barrier
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (nodes_[k].kind != Node::Reg || !regions_[static_cast<std::size_t>(nodes_[k].region)].lambda) continue;
    if (k + 1 != nodes_.size()) fail("a return before a barrier or warp operation (the lane would stop early)", open_);
    int depth = 0;
    for (std::size_t m = 0; m < k; ++m)
      depth += nodes_[m].kind == Node::Open    ? (nodes_[m].head[0] == '}' ? 0 : 1)
               : nodes_[m].kind == Node::Close ? -1
                                               : 0;
    if (depth != 0) fail("a return inside a loop or if between barriers", open_);
  }

  // Which locals live across regions.
  std::set<std::string> promoted;
  std::map<std::string, const Stmt*> decl_of;
  for (const auto& [name, where] : decls_) {
    std::set<int> in;
    for (std::size_t r = 0; r < regions_.size(); ++r)
      if (regions_[r].names.count(name)) in.insert(static_cast<int>(r));
    if (in.size() <= 1) continue;
    if (where.size() != 1) fail("the local `" + name + "` is declared twice between barriers", where[0].first->first);
    if (hoisted_names_.count(name) || all_loop_vars_.count(name))
      fail("the local `" + name + "` shadows another name", where[0].first->first);
    const Stmt& s = *where[0].first;
    // used before its declaration (another variable of that name): unsure
    for (std::size_t i = open_; i < s.first; ++i)
      if (is(i, name) && !v_.is_member_name(i)) fail("the name `" + name + "` is used before its declaration", i);
    promoted.insert(name);
    decl_of[name] = &s;
  }

  // a statement declaring several names: all of them or none live in per-lane arrays
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, where] : decls_) {
      if (promoted.count(name) || where.size() != 1) continue;
      const Stmt* s = where[0].first;
      bool with = false;
      for (const auto& [other, st] : decl_of) with = with || st == s;
      if (!with) continue;
      if (hoisted_names_.count(name) || all_loop_vars_.count(name))
        fail("the local `" + name + "` shadows another name", s->first);
      promoted.insert(name);
      decl_of[name] = s;
      grew = true;
    }
  }

  std::string r = " ::w64::rg::Block w64_b;";
  for (const Stmt* s : hoisted_) r += line(s->first, quoted) + std::string(v_.span_text(s->first, s->last));
  for (const std::string& name : promoted) {
    const Stmt& s = *decl_of[name];
    const Decl d = *as_decl(s);
    const Declarator* dc = nullptr;
    for (const Declarator& x : d.ds)
      if (tx(x.name) == name) dc = &x;
    if (d.ds.size() > 1)
      for (const Declarator& x : d.ds)
        if (x.ptr_first != npos) fail("a declaration of several pointers lives across a barrier", s.first);
    for (std::size_t i = d.type_first; i <= d.type_last; ++i)
      if (is(i, "auto") || is(i, "decltype") || is(i, "&"))
        fail("`" + name + "` lives across a barrier and is declared auto or as a reference", i);
    if (dc->paren_or_brace_init)
      fail("`" + name + "` lives across a barrier and is initialized with () or {}", s.first);
    if (dc->ptr_first != npos)
      for (std::size_t i = dc->ptr_first; i <= dc->ptr_last; ++i)
        if (is(i, "&") || is(i, "&&")) fail("`" + name + "` lives across a barrier and is a reference", i);
    if (dc->dims_first != npos && dc->init_first != npos)
      fail("the initialized array `" + name + "` lives across a barrier", s.first);
    std::string type;
    for (std::size_t i = d.type_first; i <= d.type_last; ++i) {
      if (is(i, "register") || is(i, "constexpr") || is(i, "__restrict__")) continue;
      type += tx(i) + " ";
    }
    if (dc->ptr_first != npos)
      for (std::size_t i = dc->ptr_first; i <= dc->ptr_last; ++i)
        if (!is(i, "__restrict__")) type += tx(i) + " ";
    std::string elem = "std::remove_cv_t<" + type + ">";
    if (dc->dims_first != npos) elem += std::string(v_.span_text(dc->dims_first, dc->dims_last));
    r += line(s.first, quoted) + "::w64::rg::Lanes<" + elem + "> w64_v_" + name + "(w64_b);";
  }
  for (int k = 0; k < slots_; ++k) r += " ::w64::rg::Slot w64_s" + std::to_string(k) + "(w64_b);";
  for (int k = 0; k < flags_; ++k) r += " ::w64::rg::Lanes<bool> w64_c" + std::to_string(k) + "(w64_b);";

  for (const Node& n : nodes_) {
    switch (n.kind) {
      case Node::Open: r += "\n" + n.head; break;
      case Node::Uni: r += n.head; break;
      case Node::Close: r += "\n}"; break;
      case Node::Run:
        for (int k : n.slots) r += " w64_s" + std::to_string(k) + ".run();";
        break;
      case Node::Reg: {
        const Region& g = regions_[static_cast<std::size_t>(n.region)];
        r += "\nfor (unsigned w64_l = 0; w64_l < w64_b.n; ++w64_l) {";
        if (!g.guard.empty()) r += " if (!(" + g.guard + ")) continue;";
        r += " w64_b.lane(w64_l);";
        for (const std::string& name : promoted)
          if (g.names.count(name)) r += " auto& " + name + " = w64_v_" + name + ".p[w64_l];";
        if (g.lambda) r += " [&]() {";
        for (const Piece& p : g.pieces) r += piece_text(p, promoted, quoted);
        if (g.lambda) r += "\n}();";
        r += "\n}";
        break;
      }
    }
  }
  return r + "\nreturn;";
}

}  // namespace

namespace {

std::set<std::string> param_names(const CodeView& v, std::size_t open, std::size_t close) {
  std::set<std::string> names;
  std::size_t last_id = npos;
  int depth = 0;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i == close || (depth == 0 && v.is(i, ","))) {
      if (last_id != npos) names.insert(std::string(v.text(last_id)));
      last_id = npos;
      continue;
    }
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "<")) ++depth;
    else if (v.is(i, ")") || v.is(i, "]") || v.is(i, ">")) --depth;
    else if (depth == 0 && v.is(i, "=")) {
      // default argument: the name is before it; skip to the next comma
      if (last_id != npos) names.insert(std::string(v.text(last_id)));
      last_id = npos;
      while (i + 1 < close && !(depth == 0 && v.is(i + 1, ","))) {
        ++i;
        if (v.is(i, "(") || v.is(i, "[")) depth++;
        else if (v.is(i, ")") || v.is(i, "]")) depth--;
      }
      continue;
    }
    if (depth == 0 && v.is_identifier(i)) last_id = i;
  }
  return names;
}

}  // namespace

bool Pass::kernel_body(std::size_t kw, std::size_t& params_open, std::size_t& open, std::size_t& close) const {
  // the definition's body: the first `{` after the head (parentheses skipped), unless a `;` ends
  // a declaration first
  std::size_t i = kw + 1;
  params_open = npos;
  for (; i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) continue;
    if (is(i, "(")) {
      const std::size_t c = v_.match_bracket(i);
      if (c == npos) return false;
      if (i > 0 && v_.is_identifier(i - 1) && !is(i - 1, "__launch_bounds__") && !is(i - 1, "__attribute__"))
        params_open = i;
      i = c;
      continue;
    }
    if (is(i, ";") || is(i, "=")) return false;
    if (is(i, "{")) break;
  }
  if (i >= v_.code_size() || params_open == npos) return false;
  open = i;
  close = v_.match_bracket(i);
  return close != npos;
}

void Pass::kernel(std::size_t kw, int ordinal,
                  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>>& edits) {
  std::size_t params_open = npos, open = npos, close = npos;
  if (!kernel_body(kw, params_open, open, close)) return;
  const auto original = originals_.find(ordinal);
  // a kernel whose calls were inlined for the region form but that keeps the fiber path gets its
  // body back as written (same lines: inlined code stands on its call's line)
  auto restore = [&] {
    if (original != originals_.end()) edits.push_back({{open, close}, "{" + original->second + "}"});
  };
  const std::string name = tx(params_open - 1);
  bool any_sync = false;
  for (std::size_t k = open; k <= close && !any_sync; ++k) any_sync = v_.is_identifier(k) && sync_word(v_.text(k));
  std::string why_call;
  const bool calls_safe = range_safe(open, close, &why_call);
  if (!any_sync && calls_safe) return;  // no barrier, no warp operation: the plain-call loop runs it

  auto note = [&](bool split, std::size_t at, std::string msg) {
    RegionNote n;
    n.split = split;
    n.line = v_.code(at).line;
    n.col = v_.code(at).col;
    n.message = std::move(msg);
    out_.notes.push_back(std::move(n));
  };
  std::vector<Stmt> body;
  if (!parse_list(open + 1, close, body)) {
    note(false, params_open - 1,
         "kernel " + name + " keeps the fiber path: its body is not in a form the region pass reads");
    ++out_.kept;
    restore();
    return;
  }
  Splitter sp(
      v_, [this](std::size_t a, std::size_t b, std::string* why) { return range_safe(a, b, why); },
      param_names(v_, params_open, v_.match_bracket(params_open)), open, close);
  std::string code;
  try {
    code = sp.build(body, quoted_);
  } catch (const Fail& f) {
    restore();
    if (f.why.empty()) return;
    note(false, f.at, "kernel " + name + " keeps the fiber path: " + f.why);
    ++out_.kept;
    return;
  }
  std::string text = "{ if (::w64::rg::enter()) {" + code + " }\n#line " + std::to_string(v_.code(open).line) + " \"" +
                     quoted_ + "\"\n";
  // the original body, each line where it was
  const std::string_view src = v_.source();
  text += std::string(v_.code(open).col, ' ');
  if (original != originals_.end()) text += original->second;
  else text += std::string(src.substr(v_.code(open).end, v_.code(close).begin - v_.code(open).end));
  text += "\n#line " + std::to_string(v_.code(close).line) + " \"" + quoted_ + "\"\n";
  text += std::string(v_.code(close).col > 0 ? v_.code(close).col - 1 : 0, ' ') + "}";
  edits.push_back({{open, close}, std::move(text)});
  note(true, params_open - 1,
       "kernel " + name +
           " runs in region form: the code between its barriers and warp operations is a loop over lanes");
  ++out_.split;
}

RegionOutcome Pass::run() {
  collect_functions();
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> edits;
  int ordinal = 0;
  for (std::size_t i = 0; i < v_.code_size(); ++i)
    if (is(i, "__global__") && !v_.in_directive(i)) kernel(i, ordinal++, edits);
  const std::string_view src = v_.source();
  std::size_t at = 0;
  for (const auto& [range, text] : edits) {
    const std::size_t b = v_.code(range.first).begin, e = v_.code(range.second).end;
    if (b < at) continue;
    out_.text += src.substr(at, b - at);
    out_.text += text;
    at = e;
  }
  out_.text += src.substr(at);
  return std::move(out_);
}

std::string Pass::mapped(std::size_t first, std::size_t last, const std::map<std::string, std::string>& ren) const {
  std::string r;
  for (std::size_t i = first; i <= last && i < v_.code_size(); ++i) {
    if (v_.in_directive(i)) continue;
    std::string t = tx(i);
    if (v_.is_identifier(i) && !v_.is_member_name(i) && !(i > 0 && is(i - 1, "::")))
      if (auto it = ren.find(t); it != ren.end()) t = it->second;
    if (!r.empty()) r += ' ';
    r += t;
  }
  return r;
}

// Replaces the statement `s` holding one call of a function of this file that reaches a barrier
// or warp operation by the function's body; nullopt when the call or the function is not in a
// form that can be inlined (the region pass then keeps the kernel on fibers and says why).
std::optional<std::string> Pass::inline_one(const Stmt& s, std::map<std::string, std::string>& types, int id) {
  if (s.kind != SK::Simple) return std::nullopt;
  std::size_t c = npos;
  for (std::size_t i = s.first; i <= s.last; ++i) {
    if (!v_.is_identifier(i) || v_.is_member_name(i) || (i > 0 && is(i - 1, "::"))) continue;
    const std::string n = tx(i);
    if (!funcs_.count(n) || function_safe(n)) continue;
    if (!is(i + 1, "(") && template_call_paren(i) == npos) continue;
    if (c != npos) return std::nullopt;  // two such calls
    c = i;
  }
  if (c == npos) return std::nullopt;
  const std::string f = tx(c);
  if (funcs_[f].size() != 1) return std::nullopt;
  std::size_t po = is(c + 1, "(") ? c + 1 : template_call_paren(c);
  const std::size_t pc = v_.match_bracket(po);
  if (pc == npos || pc >= s.last) return std::nullopt;
  // the forms: f(a);  x = f(a);  T x = f(a);  and any statement with the call inside (the
  // result goes through a temporary): x = f(a) - b;  T x = g(f(a));  y[i] += f(a);
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (is(i, "?") || is(i, "&&") || is(i, "||")) return std::nullopt;  // evaluated conditionally
  std::string before, target, tail;
  bool temp = false;
  const auto decl = decl_of_stmt(v_, s);
  if (c == s.first && pc + 1 == s.last) {
  } else if (c == s.first + 2 && v_.is_identifier(s.first) && is(s.first + 1, "=") && pc + 1 == s.last) {
    target = tx(s.first);
  } else if (decl && decl->ds.size() == 1 && decl->ds[0].init_first != npos && decl->ds[0].init_first <= c &&
             decl->ds[0].init_last >= pc && decl->ds[0].dims_first == npos && !decl->ds[0].paren_or_brace_init) {
    const Declarator& dc = decl->ds[0];
    std::string type;
    for (std::size_t i = decl->type_first; i <= decl->type_last; ++i)
      if (!is(i, "const") && !is(i, "constexpr")) type += tx(i) + " ";
    if (dc.ptr_first != npos) type += std::string(v_.span_text(dc.ptr_first, dc.ptr_last)) + " ";
    before = type + tx(dc.name) + "; ";
    types[tx(dc.name)] = type;
    if (dc.init_first == c && dc.init_last == pc) {
      target = tx(dc.name);
    } else {
      temp = true;
      tail = tx(dc.name) + " = " + (dc.init_first < c ? std::string(v_.span_text(dc.init_first, c - 1)) : "") +
             " w64_i" + std::to_string(id) + "_ret " +
             (pc < dc.init_last ? std::string(v_.span_text(pc + 1, dc.init_last)) : "") + ";";
    }
  } else if (!decl) {
    temp = true;
    tail = (c > s.first ? std::string(v_.span_text(s.first, c - 1)) : "") + " w64_i" + std::to_string(id) + "_ret " +
           std::string(v_.span_text(pc + 1, s.last));
  } else {
    return std::nullopt;
  }
  if (temp) target = "w64_i" + std::to_string(id) + "_ret";
  // the function: template <...> RET name(params) { ... return e; }
  const auto [fopen, fclose] = funcs_[f][0];
  std::size_t rp = fopen;
  while (rp > 0 && !is(rp - 1, ")")) --rp;
  const std::size_t fparams = v_.partner(rp - 1);
  if (fparams == npos || fparams == 0 || tx(fparams - 1) != f) return std::nullopt;
  std::size_t head = fparams - 1;
  while (head > 0 && !is(head - 1, ";") && !is(head - 1, "}") && !is(head - 1, "{") && !v_.in_directive(head - 1))
    --head;
  struct TParam {
    std::string name;
    bool type;
    std::size_t def_first = npos, def_last = npos;
  };
  std::vector<TParam> tparams;
  std::size_t ret_first = head;
  for (std::size_t i = head; i < fparams - 1; ++i) {
    if (!(is(i, "template") && is(i + 1, "<"))) continue;
    int depth = 0;
    std::size_t j = i + 1, entry = i + 2;
    for (; j < fparams; ++j) {
      if (is(j, "<")) ++depth;
      else if (is(j, ">")) --depth;
      else if (is(j, "(") || is(j, "[")) j = v_.match_bracket(j);
      if (j == npos) return std::nullopt;
      if ((depth == 1 && is(j, ",")) || depth == 0) {
        TParam t;
        t.type = is(entry, "typename") || is(entry, "class");
        std::size_t end = j;
        for (std::size_t k = entry; k < j; ++k)
          if (is(k, "=")) {
            t.def_first = k + 1;
            t.def_last = j - 1;
            end = k;
            break;
          }
        if (end == entry || !v_.is_identifier(end - 1)) return std::nullopt;
        t.name = tx(end - 1);
        tparams.push_back(t);
        entry = j + 1;
      }
      if (depth == 0) break;
    }
    ret_first = j + 1;
    break;
  }
  bool void_ret = false;
  std::size_t rt_first = npos, rt_last = npos;  // the return type, specifiers left out
  for (std::size_t i = ret_first; i + 1 < fparams; ++i) {
    if ((is(i, "__attribute__") || is(i, "__launch_bounds__") || is(i, "alignas")) && is(i + 1, "(")) {
      i = v_.match_bracket(i + 1);
      if (i == npos) return std::nullopt;
      continue;
    }
    if (is(i, "__device__") || is(i, "__host__") || is(i, "__forceinline__") || is(i, "__inline__") ||
        is(i, "inline") || is(i, "static") || is(i, "__noinline__") || is(i, "constexpr") || is(i, "extern"))
      continue;
    if (rt_first == npos) rt_first = i;
    rt_last = i;
    void_ret = void_ret || is(i, "void");
  }
  if (rt_first == npos) return std::nullopt;
  // explicit template arguments
  std::map<std::string, std::string> ren;
  std::vector<std::string> targs;
  if (po != c + 1) {
    std::size_t entry = c + 2;
    int depth = 0;
    for (std::size_t j = c + 1; j < po; ++j) {
      if (is(j, "<")) ++depth;
      else if (is(j, ">")) --depth;
      else if (is(j, ">>")) depth -= 2;
      else if (is(j, "(") || is(j, "[")) j = v_.match_bracket(j);
      if ((depth == 1 && is(j, ",")) || (depth <= 0 && j + 1 == po)) {
        if (j == entry) return std::nullopt;
        targs.push_back(std::string(v_.span_text(entry, j - 1)));
        entry = j + 1;
      }
    }
  }
  if (targs.size() > tparams.size()) return std::nullopt;
  // parameters
  struct FParam {
    std::size_t first, last, name;
  };
  std::vector<FParam> fps;
  for (const lex::ArgRange& a : v_.call_args(fparams)) {
    if (a.empty()) continue;
    std::size_t last = a.last;
    for (std::size_t k = a.first; k <= a.last; ++k)
      if (is(k, "=")) last = k - 1;
    for (std::size_t k = a.first; k <= last; ++k)
      if (is(k, "&") || is(k, "&&") || is(k, "[") || is(k, "...")) return std::nullopt;
    if (a.first == last && is(last, "void")) continue;
    if (!v_.is_identifier(last) || last == a.first) return std::nullopt;
    fps.push_back({a.first, last - 1, last});
  }
  const std::vector<lex::ArgRange> args = v_.call_args(po);
  std::vector<lex::ArgRange> given;
  for (const lex::ArgRange& a : args)
    if (!a.empty()) given.push_back(a);
  if (given.size() != fps.size()) return std::nullopt;  // default arguments: not inlined
  for (std::size_t k = 0; k < tparams.size(); ++k) {
    const TParam& t = tparams[k];
    std::string value;
    if (k < targs.size()) {
      value = targs[k];
    } else {
      // deduced from an argument that is a name of known type, for a parameter declared `T name`
      for (std::size_t m = 0; m < fps.size() && value.empty(); ++m)
        if (fps[m].first == fps[m].last && tx(fps[m].first) == t.name && given[m].first == given[m].last &&
            types.count(tx(given[m].first)))
          value = types[tx(given[m].first)];
      if (value.empty() && t.def_first != npos) value = std::string(v_.span_text(t.def_first, t.def_last));
      if (value.empty()) return std::nullopt;
    }
    ren[t.name] = t.type ? value : "(" + value + ")";
  }
  const std::string prefix = "w64_i" + std::to_string(id) + "_";
  for (const FParam& p : fps) ren[tx(p.name)] = prefix + tx(p.name);
  // the body: returns only as its last statement; its locals renamed
  std::vector<Stmt> body;
  if (!parse_list(fopen + 1, fclose, body) || body.empty()) return std::nullopt;
  std::vector<const Stmt*> todo;
  for (const Stmt& st : body) todo.push_back(&st);
  while (!todo.empty()) {
    const Stmt* st = todo.back();
    todo.pop_back();
    if (st->kind == SK::Return && st != &body.back()) return std::nullopt;
    if (st->kind == SK::Directive && !is(st->first + 1, "pragma")) return std::nullopt;
    if (st->kind == SK::Other) return std::nullopt;
    if (auto d = decl_of_stmt(v_, *st))
      for (const Declarator& dc : d->ds) ren[tx(dc.name)] = prefix + tx(dc.name);
    if (st->kind == SK::For) {
      Stmt init;
      init.first = st->hopen + 1;
      init.last = st->hopen + 1;
      while (init.last < st->hclose && !is(init.last, ";")) ++init.last;
      if (init.last > init.first)
        if (auto d = decl_of_stmt(v_, init))
          for (const Declarator& dc : d->ds) ren[tx(dc.name)] = prefix + tx(dc.name);
    }
    for (const Stmt& k : st->kids) todo.push_back(&k);
  }
  const Stmt& last = body.back();
  if (!void_ret && last.kind != SK::Return) return std::nullopt;
  if (temp && void_ret) return std::nullopt;
  std::string r = before + "{ ";
  if (temp) r += mapped(rt_first, rt_last, ren) + " " + target + "; ";
  for (std::size_t k = 0; k < fps.size(); ++k) {
    const std::string type = mapped(fps[k].first, fps[k].last, ren);
    r += type + " " + prefix + tx(fps[k].name) + " = (" + std::string(v_.span_text(given[k].first, given[k].last)) +
         "); ";
    types[prefix + tx(fps[k].name)] = type;
  }
  for (const Stmt& st : body) {
    if (&st == &last && st.kind == SK::Return) {
      if (st.last > st.first + 1) {
        const std::string e = mapped(st.first + 1, st.last - 1, ren);
        r += target.empty() ? "(void)(" + e + "); " : target + " = (" + e + "); ";
      }
      continue;
    }
    if (st.kind == SK::Directive) continue;
    if (auto d = decl_of_stmt(v_, st)) {
      std::string type;
      for (std::size_t i = d->type_first; i <= d->type_last; ++i) type += tx(i) + " ";
      for (const Declarator& dc : d->ds)
        if (dc.ptr_first == npos) types[prefix + tx(dc.name)] = mapped(d->type_first, d->type_last, ren);
    }
    r += mapped(st.first, st.last, ren) + " ";
  }
  if (temp) r += tail + " ";
  return r + "}";
}

bool Pass::inline_calls(std::string& out, std::map<int, std::string>& originals, int& next_id) {
  collect_functions();
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> edits;
  int ordinal = 0;
  for (std::size_t kw = 0; kw < v_.code_size(); ++kw) {
    if (!is(kw, "__global__") || v_.in_directive(kw)) continue;
    const int ord = ordinal++;
    std::size_t params_open = npos, open = npos, close = npos;
    if (!kernel_body(kw, params_open, open, close)) continue;
    std::vector<Stmt> body;
    if (!parse_list(open + 1, close, body)) continue;
    // the types of names, for template arguments deduced from them
    std::map<std::string, std::string> types;
    for (const lex::ArgRange& a : v_.call_args(params_open))
      if (!a.empty() && v_.is_identifier(a.last) && a.last > a.first)
        types[tx(a.last)] = std::string(v_.span_text(a.first, a.last - 1));
    std::vector<const Stmt*> todo;
    for (const Stmt& st : body) todo.push_back(&st);
    std::vector<const Stmt*> order;
    while (!todo.empty()) {
      const Stmt* st = todo.back();
      todo.pop_back();
      order.push_back(st);
      for (auto k = st->kids.rbegin(); k != st->kids.rend(); ++k) todo.push_back(&*k);
    }
    std::sort(order.begin(), order.end(), [](const Stmt* a, const Stmt* b) { return a->first < b->first; });
    bool changed = false;
    for (const Stmt* st : order) {
      if (auto d = decl_of_stmt(v_, *st))
        for (const Declarator& dc : d->ds)
          if (dc.ptr_first == npos && d->type_last >= d->type_first)
            types[tx(dc.name)] = std::string(v_.span_text(d->type_first, d->type_last));
      if (st->kind != SK::Simple) continue;
      if (auto text = inline_one(*st, types, next_id)) {
        ++next_id;
        // the statement's lines stay lines: the inlined code stands on the first
        *text += std::string(v_.code(st->last).line - v_.code(st->first).line, '\n');
        edits.push_back({{st->first, st->last}, *text});
        changed = true;
      }
    }
    if (changed && !originals.count(ord))
      originals[ord] = std::string(v_.source().substr(v_.code(open).end, v_.code(close).begin - v_.code(open).end));
  }
  if (edits.empty()) return false;
  const std::string_view src = v_.source();
  std::size_t at = 0;
  out.clear();
  for (const auto& [range, text] : edits) {
    const std::size_t b = v_.code(range.first).begin, e = v_.code(range.second).end;
    if (b < at) continue;
    out += src.substr(at, b - at);
    out += text;
    at = e;
  }
  out += src.substr(at);
  return true;
}

std::string RegionNote::format(const std::string& path) const {
  return path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": note: " + message;
}

RegionOutcome form_regions(std::string_view text, const std::string& display_path) {
  // Calls of functions that reach barriers or warp operations are inlined first (a few rounds:
  // the inlined bodies may call more), then the kernels are split.
  std::string cur(text);
  std::map<int, std::string> originals;
  int next_id = 0;
  for (int round = 0; round < 6; ++round) {
    Pass p(cur, display_path);
    std::string next;
    if (!p.inline_calls(next, originals, next_id)) break;
    cur = std::move(next);
  }
  Pass p(cur, display_path);
  p.originals_ = std::move(originals);
  RegionOutcome r = p.run();
  return r;
}

}  // namespace ferry::wave64
