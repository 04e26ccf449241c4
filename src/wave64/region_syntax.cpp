#include "wave64/region_syntax.h"

namespace ferry::wave64::regions {

// ---- names -----------------------------------------------------------------------------------

const std::set<std::string_view> kBarriers = {"__syncthreads", "__syncwarp", "__builtin_amdgcn_s_barrier",
                                              "__builtin_amdgcn_wave_barrier", "W64_LOCKSTEP"};
const std::set<std::string_view> kWarpOps = {
    "__shfl",           "__shfl_up",       "__shfl_down", "__shfl_xor",   "__shfl_sync", "__shfl_up_sync",
    "__shfl_down_sync", "__shfl_xor_sync", "__ballot",    "__ballot64",   "__any",       "__all",
    "__ballot_sync",    "__any_sync",      "__all_sync",  "__activemask", "mma_sync"};
bool in_place_op(std::string_view n) { return n == "mma_sync"; }
bool wmma_lane_call(std::string_view n) {
  return n == "fill_fragment" || n == "load_matrix_sync" || n == "store_matrix_sync";
}
bool wmma_namespace(std::string_view n) { return n == "wmma" || n == "nvcuda" || n == "rocwmma"; }
std::size_t qualified_first(const CodeView& v, std::size_t i) {
  while (i >= 2 && v.is(i - 1, "::") && v.is_identifier(i - 2)) i -= 2;
  if (i >= 1 && v.is(i - 1, "::")) --i;
  return i;
}
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
  if (names.count(n) || wmma_lane_call(n)) return true;
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

namespace {

std::size_t skip_to_semicolon(const CodeView& v_, std::size_t i, std::size_t end) {
  auto is = [&](std::size_t k, std::string_view t) { return v_.is(k, t); };
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

}  // namespace

std::optional<Stmt> parse_statement(const CodeView& v_, std::size_t& i, std::size_t end) {
  auto is = [&](std::size_t k, std::string_view t) { return v_.is(k, t); };
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
    auto b = parse_statement(v_, k, end);
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
    if (!parse_statements(v_, i + 1, s.last, s.kids)) return std::nullopt;
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
    const std::size_t semi = skip_to_semicolon(v_, i, end);
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
  const std::size_t semi = skip_to_semicolon(v_, i, end);
  if (semi == npos) return std::nullopt;
  s.last = semi;
  i = semi + 1;
  return s;
}

bool parse_statements(const CodeView& v_, std::size_t from, std::size_t to, std::vector<Stmt>& out) {
  std::size_t i = from;
  while (i < to) {
    auto s = parse_statement(v_, i, to);
    if (!s) return false;
    out.push_back(std::move(*s));
  }
  return true;
}

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

std::optional<Decl> for_init_decl(const CodeView& v, const Stmt& for_stmt) {
  std::size_t semi = for_stmt.hopen + 1;
  while (semi < for_stmt.hclose && !v.is(semi, ";")) ++semi;
  Stmt init;
  init.kind = SK::Simple;
  init.first = for_stmt.hopen + 1;
  init.last = semi;
  if (semi <= init.first) return std::nullopt;
  return decl_of_stmt(v, init);
}

// ---- edits -----------------------------------------------------------------------------------

std::string apply_edits(const CodeView& v, const TokenEdits& edits) {
  const std::string_view src = v.source();
  std::string out;
  std::size_t at = 0;
  for (const auto& [range, text] : edits) {
    const std::size_t b = v.code(range.first).begin, e = v.code(range.second).end;
    if (b < at) continue;
    out += src.substr(at, b - at);
    out += text;
    at = e;
  }
  out += src.substr(at);
  return out;
}

}  // namespace ferry::wave64::regions
