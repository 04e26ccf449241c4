#include "targets/hip/ptx_idioms.h"

#include <array>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <regex>

namespace ferry::targets::hip {
namespace {

// One idiom. `pattern` is an ECMAScript regular expression over the whole normalised template,
// where "{o}" stands for an operand: a reference (%0, %[name]) or an immediate. `replacement` is
// the C++ that replaces the statement ($N: group N, an operand reference becoming its expression;
// ${T N}: the C type of PTX type suffix N; ${V N}: the HIP vector type of 4 of them), empty when
// HIP has no exact equivalent, with `why` saying so. `check` names a condition on the groups.
enum class Check : std::uint8_t {
  None,
  FullMask,   // group `arg` is absent or the full mask (0xffffffff, -1)
  ShflWidth,  // shfl.sync: group 1 the mode, `arg` the c operand (an immediate), `arg`+1 the mask
};

struct Idiom {
  std::string_view name;
  std::string_view pattern;
  std::string_view replacement;
  bool needs_compat;  // ferry/compat/ptx.h (ferry_ptx_* and hip_fp16.h)
  std::string_view why;
  Check check = Check::None;
  int arg = 0;
};

// clang-format off
constexpr std::array kPtxIdioms = {
  // Special registers.
  Idiom{"%laneid", R"(mov\.u32 ({o}), %laneid)", "$1 = __lane_id()", false, {}},
  Idiom{"%lanemask_lt", R"(mov\.u32 ({o}), %lanemask_lt)", "$1 = (1ull << __lane_id()) - 1", false, {}},
  Idiom{"%lanemask_le", R"(mov\.u32 ({o}), %lanemask_le)", "$1 = (2ull << __lane_id()) - 1", false, {}},
  Idiom{"%lanemask_gt", R"(mov\.u32 ({o}), %lanemask_gt)", "$1 = ~((2ull << __lane_id()) - 1)", false, {}},
  Idiom{"%lanemask_ge", R"(mov\.u32 ({o}), %lanemask_ge)", "$1 = ~((1ull << __lane_id()) - 1)", false, {}},
  Idiom{"%lanemask_eq", R"(mov\.u32 ({o}), %lanemask_eq)", "$1 = __lanemask_eq()", false, {}},
  Idiom{"%clock", R"(mov\.u32 ({o}), %clock)", "$1 = (unsigned int)clock64()", false, {}},
  Idiom{"%clock64", R"(mov\.u64 ({o}), %clock64)", "$1 = clock64()", false, {}},
  Idiom{"%smid", R"(mov\.u32 ({o}), %smid)", "$1 = __smid()", false, {}},
  Idiom{"%warpid", R"(mov\.u32 ({o}), %warpid)", {}, false,
        "%warpid is the warp's hardware slot on its SM, which may change during the warp's life; HIP has no such "
        "register: use the warp index in the block (threadIdx.x / warpSize)"},
  Idiom{"%globaltimer", R"(mov\.u64 ({o}), %globaltimer(?:_lo|_hi)?)", {}, false,
        "%globaltimer counts nanoseconds; HIP's wall_clock64() counts at hipDeviceAttributeWallClockRate kHz: "
        "use wall_clock64() and scale by 1e6 / that rate"},
  // Bit manipulation.
  Idiom{"bfe", R"(bfe\.(u32|s32|u64|s64) ({o}), ({o}), ({o}), ({o}))", "$2 = ferry_ptx_bfe_$1($3, $4, $5)", true, {}},
  Idiom{"bfi", R"(bfi\.(b32|b64) ({o}), ({o}), ({o}), ({o}), ({o}))", "$2 = ferry_ptx_bfi_$1($3, $4, $5, $6)", true, {}},
  Idiom{"prmt", R"(prmt\.b32 ({o}), ({o}), ({o}), ({o}))", "$1 = __byte_perm($2, $3, $4)", false, {}},
  Idiom{"brev.b32", R"(brev\.b32 ({o}), ({o}))", "$1 = __brev($2)", false, {}},
  Idiom{"brev.b64", R"(brev\.b64 ({o}), ({o}))", "$1 = __brevll($2)", false, {}},
  Idiom{"popc.b32", R"(popc\.b32 ({o}), ({o}))", "$1 = __popc($2)", false, {}},
  Idiom{"popc.b64", R"(popc\.b64 ({o}), ({o}))", "$1 = __popcll($2)", false, {}},
  Idiom{"clz.b32", R"(clz\.b32 ({o}), ({o}))", "$1 = __clz($2)", false, {}},
  Idiom{"clz.b64", R"(clz\.b64 ({o}), ({o}))", "$1 = __clzll($2)", false, {}},
  // Arithmetic.
  Idiom{"mul.hi.u32", R"(mul\.hi\.u32 ({o}), ({o}), ({o}))", "$1 = __umulhi($2, $3)", false, {}},
  Idiom{"mul.hi.s32", R"(mul\.hi\.s32 ({o}), ({o}), ({o}))", "$1 = __mulhi($2, $3)", false, {}},
  Idiom{"mul.hi.u64", R"(mul\.hi\.u64 ({o}), ({o}), ({o}))", "$1 = __umul64hi($2, $3)", false, {}},
  Idiom{"mul.hi.s64", R"(mul\.hi\.s64 ({o}), ({o}), ({o}))", "$1 = __mul64hi($2, $3)", false, {}},
  Idiom{"fma.rn.f32", R"(fma\.rn\.f32 ({o}), ({o}), ({o}), ({o}))", "$1 = __fmaf_rn($2, $3, $4)", false, {}},
  Idiom{"fma.rn.f64", R"(fma\.rn\.f64 ({o}), ({o}), ({o}), ({o}))", "$1 = __fma_rn($2, $3, $4)", false, {}},
  Idiom{"cvt.rn.f16.f32", R"(cvt\.rn\.f16\.f32 ({o}), ({o}))", "$1 = __half_as_ushort(__float2half_rn($2))", true, {}},
  Idiom{"cvt.f32.f16", R"(cvt\.f32\.f16 ({o}), ({o}))", "$1 = __half2float(__ushort_as_half($2))", true, {}},
  // Loads and stores with cache hints: the same load or store, the hint as HIP spells it.
  Idiom{"ld.global.nc", R"(ld\.global\.nc\.(f32|f64|u8|s8|u16|s16|b16|u32|s32|b32|u64|s64|b64) ({o}), \[({o})\])",
        "$2 = __ldg((const ${T1}*)($3))", false, {}},
  Idiom{"ld.global.nc.v4", R"(ld\.global\.nc\.v4\.(f32|u32|s32|b32) \{({o}), ({o}), ({o}), ({o})\}, \[({o})\])",
        "[&] { const ${V1} ferry_v = __ldg((const ${V1}*)($6)); $2 = ferry_v.x; $3 = ferry_v.y; $4 = ferry_v.z; "
        "$5 = ferry_v.w; }()", false, {}},
  Idiom{"ld.global.cs", R"(ld\.global\.cs\.(f32|f64|u8|s8|u16|s16|b16|u32|s32|b32|u64|s64|b64) ({o}), \[({o})\])",
        "$2 = __builtin_nontemporal_load((const ${T1}*)($3))", false, {}},
  Idiom{"ld.global.cs.v4", R"(ld\.global\.cs\.v4\.(f32|u32|s32|b32) \{({o}), ({o}), ({o}), ({o})\}, \[({o})\])",
        "[&] { const ${T1}* ferry_p = (const ${T1}*)($6); $2 = __builtin_nontemporal_load(ferry_p); "
        "$3 = __builtin_nontemporal_load(ferry_p + 1); $4 = __builtin_nontemporal_load(ferry_p + 2); "
        "$5 = __builtin_nontemporal_load(ferry_p + 3); }()", false, {}},
  Idiom{"st.global.cs", R"(st\.global\.cs\.(f32|f64|u8|s8|u16|s16|b16|u32|s32|b32|u64|s64|b64) \[({o})\], ({o}))",
        "__builtin_nontemporal_store((${T1})($3), (${T1}*)($2))", false, {}},
  Idiom{"st.global.cs.v4", R"(st\.global\.cs\.v4\.(f32|u32|s32|b32) \[({o})\], \{({o}), ({o}), ({o}), ({o})\})",
        "[&] { ${T1}* ferry_p = (${T1}*)($2); __builtin_nontemporal_store((${T1})($3), ferry_p); "
        "__builtin_nontemporal_store((${T1})($4), ferry_p + 1); __builtin_nontemporal_store((${T1})($5), ferry_p + 2); "
        "__builtin_nontemporal_store((${T1})($6), ferry_p + 3); }()", false, {}},
  // Warp operations (HIP's act on the wavefront; a width of 32 keeps CUDA's 32-lane segments).
  Idiom{"shfl.sync", R"(shfl\.sync\.(idx|up|down|bfly)\.b32 ({o}), ({o}), ({o}), ({o}), ({o}))", "", false, {},
        Check::ShflWidth, 5},
  Idiom{"vote.ballot", R"(setp\.ne\.(?:b32|u32|s32) (\w+), ({o}), 0; vote(?:\.sync)?\.ballot\.b32 ({o}), \1(?:, ({o}))?)",
        "$3 = __ballot($2 != 0)", false, {}, Check::FullMask, 4},
  Idiom{"vote.any/all", R"(setp\.ne\.(?:b32|u32|s32) (\w+), ({o}), 0; vote(?:\.sync)?\.(any|all)\.pred (\w+), \1(?:, ({o}))?; selp\.(?:s32|u32|b32) ({o}), 1, 0, \4)",
        "$6 = __$3($2 != 0)", false, {}, Check::FullMask, 5},
  Idiom{"activemask", R"(activemask\.b32 ({o}))", "$1 = __ballot(1)", false, {}},
  // Fences and barriers.
  Idiom{"membar.cta", R"(membar\.cta)", "__threadfence_block()", false, {}},
  Idiom{"membar.gl", R"(membar\.gl)", "__threadfence()", false, {}},
  Idiom{"membar.sys", R"(membar\.sys)", "__threadfence_system()", false, {}},
  Idiom{"bar.sync 0", R"((?:bar\.sync|barrier\.sync|bar\.sync\.aligned|barrier\.sync\.aligned) 0)", "__syncthreads()", false, {}},
  Idiom{"trap", R"(trap)", "__builtin_trap()", false, {}},
  // Known, with no HIP equivalent (the reason is the report).
  Idiom{"cp.async", R"(cp\.async\.(?!bulk).*)", {}, false,
        "cp.async (sm_80's asynchronous global-to-shared copy) has no HIP equivalent: load into registers and store "
        "to shared memory, and replace cp.async.wait_group with __syncthreads()"},
  Idiom{"ldmatrix/stmatrix", R"((?:ldmatrix|stmatrix)\..*)", {}, false,
        "ldmatrix/stmatrix feed NVIDIA's tensor-core fragments; AMD's MFMA fragments have other layouts: port the "
        "tile with rocWMMA (or MFMA builtins on gfx908+)"},
  Idiom{"mma", R"((?:mma\.sync|wmma|wgmma|tcgen05)\..*)", {}, false,
        "tensor-core MMA has no gfx906 equivalent; on gfx908+ AMD's MFMA has other shapes and layouts: port with rocWMMA"},
  Idiom{"sm_90 async", R"((?:cp\.async\.bulk|cp\.reduce\.async\.bulk|mbarrier|fence\.proxy|griddepcontrol|setmaxnreg|elect)\b.*)", {}, false,
        "a Hopper/Blackwell feature (TMA, mbarrier, programmatic dependent launch, register reconfiguration) with no "
        "AMD equivalent"},
};
// clang-format on

// The C type of a PTX type suffix.
std::string_view c_type(std::string_view t) {
  static const std::map<std::string_view, std::string_view> kTypes = {{"f32", "float"},
                                                                      {"f64", "double"},
                                                                      {"u8", "unsigned char"},
                                                                      {"s8", "signed char"},
                                                                      {"u16", "unsigned short"},
                                                                      {"s16", "short"},
                                                                      {"b16", "unsigned short"},
                                                                      {"u32", "unsigned int"},
                                                                      {"s32", "int"},
                                                                      {"b32", "unsigned int"},
                                                                      {"u64", "unsigned long long"},
                                                                      {"s64", "long long"},
                                                                      {"b64", "unsigned long long"}};
  const auto it = kTypes.find(t);
  return it == kTypes.end() ? std::string_view() : it->second;
}
std::string_view vector4_type(std::string_view t) {
  if (t == "f32") return "float4";
  if (t == "s32") return "int4";
  return "uint4";
}

bool is_simple(std::string_view e) {
  if (e.empty()) return false;
  for (char c : e)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

// The C++ expression an operand reference or immediate stands for; nullopt for an unknown one.
std::optional<std::string> operand_text(const PtxStatement& s, std::string_view ref) {
  if (!ref.starts_with('%')) return std::string(ref);  // an immediate (or a PTX register name)
  const PtxOperand* op = nullptr;
  if (ref.size() > 2 && ref[1] == '[') {
    const std::string_view name = ref.substr(2, ref.size() - 3);
    for (const auto* list : {&s.outputs, &s.inputs})
      for (const PtxOperand& o : *list)
        if (o.name == name) op = &o;
  } else {
    std::size_t n = 0;
    for (char c : ref.substr(1)) n = n * 10 + static_cast<std::size_t>(c - '0');
    if (n < s.outputs.size()) op = &s.outputs[n];
    else if (n - s.outputs.size() < s.inputs.size()) op = &s.inputs[n - s.outputs.size()];
  }
  if (!op) return std::nullopt;
  std::string e = op->expr;
  while (!e.empty() && e.front() == ' ') e.erase(0, 1);
  while (!e.empty() && e.back() == ' ') e.pop_back();
  return is_simple(e) ? e : "(" + e + ")";
}

bool is_full_mask(std::string_view m) { return m == "0xffffffff" || m == "0xFFFFFFFF" || m == "-1"; }

std::optional<long long> immediate(std::string_view t) {
  if (t.empty() || t.front() == '%') return std::nullopt;
  try {
    return std::stoll(std::string(t), nullptr, 0);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::string normalize_ptx(std::string_view templ) {
  // Escapes and comments.
  std::string raw;
  for (std::size_t i = 0; i < templ.size(); ++i) {
    const char c = templ[i];
    if (c == '\\' && i + 1 < templ.size()) {
      const char n = templ[++i];
      raw += n == 'n' || n == 't' || n == 'r' ? ' ' : n;
      if (n == 'n') raw.back() = ';';  // a line break ends an instruction as ';' does
    } else if (c == '\n') {
      raw += ';';
    } else if (c == '%' && i + 1 < templ.size() && templ[i + 1] == '%') {
      raw += '%';
      ++i;
    } else if (c == '/' && i + 1 < templ.size() && templ[i + 1] == '/') {
      while (i < templ.size() && !(templ[i] == '\\' && i + 1 < templ.size() && templ[i + 1] == 'n')) ++i;
      --i;
    } else {
      raw += c;
    }
  }
  // Instructions: split at ';', blanks collapsed, scope braces and .reg declarations dropped.
  std::vector<std::string> insts;
  std::string cur;
  auto flush = [&] {
    std::string t;
    for (char c : cur) {
      if (c == ' ' || c == '\t' || c == '\r') {
        if (!t.empty() && t.back() != ' ') t += ' ';
      } else {
        t += c;
      }
    }
    cur.clear();
    while (!t.empty() && (t.front() == ' ' || t.front() == '{' || t.front() == '}')) t.erase(0, 1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '}')) {
      // A '}' closing a vector operand list ({%0, %1}) stays; a scope's does not.
      if (t.back() == '}' && t.find('{') != std::string::npos) break;
      t.pop_back();
    }
    if (t.empty() || t.starts_with(".reg ") || t.starts_with(".reg.")) return;
    // ", " everywhere: "mov.u32 %0,%laneid" and "mov.u32 %0 , %laneid" read alike.
    std::string u;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] == ',') {
        while (!u.empty() && u.back() == ' ') u.pop_back();
        u += ", ";
        while (i + 1 < t.size() && t[i + 1] == ' ') ++i;
      } else {
        u += t[i];
      }
    }
    insts.push_back(u);
  };
  for (char c : raw) {
    if (c == ';') flush();
    else cur += c;
  }
  flush();
  std::string out;
  for (const std::string& i : insts) out += (out.empty() ? "" : "; ") + i;
  return out;
}

namespace {

// The text every string that `pattern` matches (whole, as regex_match does) starts with: its
// characters up to the first operator of the expression (`\.` read as `.`), without one that a
// quantifier makes optional; empty when the expression has an alternative at the top level.
std::string literal_prefix(std::string_view pattern) {
  int depth = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') ++i;
    else if (pattern[i] == '(') ++depth;
    else if (pattern[i] == ')') --depth;
    else if (pattern[i] == '|' && depth == 0) return {};
  }
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size() && std::ispunct(static_cast<unsigned char>(pattern[i + 1]))) {
      out += pattern[++i];
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == ',' || c == '%' || c == '_' ||
               c == ';' || c == ':' || c == '=' || c == '-') {
      out += c;
    } else {
      break;
    }
    if (i + 1 < pattern.size() && (pattern[i + 1] == '?' || pattern[i + 1] == '*' || pattern[i + 1] == '{')) {
      out.pop_back();
      break;
    }
  }
  return out;
}

// The table's expressions, each compiled when a template first starts with its literal prefix:
// std::regex compiles slowly (all of them took 4% of a migration's CPU time), and most files'
// inline PTX reaches few of the idioms.
class CompiledIdioms {
 public:
  CompiledIdioms() {
    for (std::size_t k = 0; k < kPtxIdioms.size(); ++k) {
      std::string p(kPtxIdioms[k].pattern);
      for (std::size_t at; (at = p.find("{o}")) != std::string::npos;)
        p.replace(at, 3, R"(%\d+|%\[\w+\]|-?(?:0[xX][0-9a-fA-F]+|\d+))");
      prefix_[k] = literal_prefix(p);
      pattern_[k] = std::move(p);
    }
  }
  // Whether `norm` is a whole match of idiom `k`'s expression (the groups in `m`).
  bool match(std::size_t k, const std::string& norm, std::smatch& m) {
    if (!norm.starts_with(prefix_[k])) return false;
    std::call_once(once_[k], [&] { re_[k].emplace(pattern_[k], std::regex::ECMAScript | std::regex::optimize); });
    return std::regex_match(norm, m, *re_[k]);
  }

 private:
  std::array<std::string, kPtxIdioms.size()> pattern_, prefix_;
  std::array<std::once_flag, kPtxIdioms.size()> once_;
  std::array<std::optional<std::regex>, kPtxIdioms.size()> re_;
};

}  // namespace

PtxVerdict rewrite_ptx(const PtxStatement& s) {
  static CompiledIdioms compiled;
  const std::string norm = normalize_ptx(s.templ);
  PtxVerdict v;
  for (std::size_t k = 0; k < kPtxIdioms.size(); ++k) {
    const Idiom& idiom = kPtxIdioms[k];
    std::smatch m;
    if (!compiled.match(k, norm, m)) continue;
    if (idiom.replacement.empty() && idiom.check != Check::ShflWidth) {
      v.why = std::string(idiom.why);
      return v;
    }
    std::string repl(idiom.replacement);
    if (idiom.check == Check::FullMask && m[idiom.arg].matched && !is_full_mask(m[idiom.arg].str())) {
      v.why = "'" + std::string(idiom.name) + std::string("' with a mask other than the full one (") +
              m[idiom.arg].str() + "): HIP's warp operations take no mask";
      return v;
    }
    if (idiom.check == Check::ShflWidth) {
      // shfl.sync.MODE.b32 d, a, b, c, membermask: c = ((32 - width) << 8) | clamp, with clamp
      // 31 for idx/down/bfly and 0 for up (the form __shfl*_sync(…, width) compiles to).
      const std::string mode = m[1].str();
      const auto c = immediate(m[idiom.arg].str());
      if (!c || !is_full_mask(m[idiom.arg + 1].str())) {
        v.why = "shfl.sync with a segment operand or mask that is not a constant full-warp one";
        return v;
      }
      const long long width = 32 - ((*c >> 8) & 0x1f);
      const long long clamp = *c & 0x1f;
      if (clamp != (mode == "up" ? 0 : width - 1) || width <= 0 || (width & (width - 1)) != 0) {
        v.why = "shfl.sync with a clamp value CUDA's __shfl*_sync never writes";
        return v;
      }
      const std::string fn = mode == "idx"    ? "__shfl"
                             : mode == "up"   ? "__shfl_up"
                             : mode == "down" ? "__shfl_down"
                                              : "__shfl_xor";
      // idx: PTX keeps the source lane inside the segment (b & (W - 1)); HIP's __shfl adds it to
      // the segment's first lane as it is. up/down/bfly: HIP's bounds are PTX's.
      const std::string w = std::to_string(width);
      repl = "$2 = " + fn + (mode == "idx" ? "($3, (($4) & ((" + w + ") - 1)), " : "($3, $4, ") + w + ")";
    }
    // Substitute ${T N}, ${V N}, then $N.
    std::string out;
    for (std::size_t i = 0; i < repl.size(); ++i) {
      if (repl[i] == '$' && i + 3 < repl.size() && repl[i + 1] == '{') {
        const char kind = repl[i + 2];
        const int g = repl[i + 3] - '0';
        const std::string suffix = m[g].str();
        out += kind == 'T' ? std::string(c_type(suffix)) : std::string(vector4_type(suffix));
        i += 4;  // past "}"
        continue;
      }
      if (repl[i] == '$' && i + 1 < repl.size() && std::isdigit(static_cast<unsigned char>(repl[i + 1]))) {
        const int g = repl[i + 1] - '0';
        ++i;
        const std::string text = m[g].str();
        // A PTX type or mode word (ferry_ptx_bfe_$1, __$3) stays as captured.
        if (text.empty() ||
            !(text.front() == '%' || text.front() == '-' || std::isdigit(static_cast<unsigned char>(text.front())))) {
          out += text;
          continue;
        }
        const auto e = operand_text(s, text);
        if (!e) {
          v.why = "operand " + text + " is not one of the statement's";
          return v;
        }
        out += *e;
        continue;
      }
      out += repl[i];
    }
    v.rewrite = PtxRewrite{out, std::string(idiom.name), idiom.needs_compat};
    return v;
  }
  v.why = "not one of the PTX idioms Ferry rewrites (docs/targets.md, Inline PTX)";
  return v;
}

std::size_t asm_open(const lex::CodeView& v, std::size_t ci) {
  if (!v.is(ci, "asm") && !v.is(ci, "__asm__") && !v.is(ci, "__asm")) return lex::npos;
  std::size_t open = ci + 1;
  while (v.is(open, "volatile") || v.is(open, "__volatile__") || v.is(open, "goto") || v.is(open, "inline")) ++open;
  return v.is(open, "(") ? open : lex::npos;
}

std::optional<PtxStatement> parse_asm(const lex::CodeView& file, std::size_t open, std::size_t close) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> sections(1);  // per section, its operands
  std::size_t start = open + 1;
  std::size_t section = 0;
  auto end_operand = [&](std::size_t at) {
    sections[section].push_back({start, at});
    start = at + 1;
  };
  for (std::size_t ci = open + 1; ci < close; ++ci) {
    const std::string_view t = file.text(ci);
    if (t == "(" || t == "[" || t == "{") {
      ci = file.match_bracket(ci);
      if (ci == lex::npos || ci > close) return std::nullopt;
      continue;
    }
    if (t == "," && section > 0) end_operand(ci);
    else if (t == ":" || t == "::") {
      end_operand(ci);
      for (int n = t == "::" ? 2 : 1; n > 0; --n) {
        ++section;
        sections.emplace_back();
      }
      if (t == "::") sections[section - 1].push_back({ci, ci});  // an empty section
    }
  }
  end_operand(close);
  PtxStatement s;
  // The template: adjacent string literals.
  const auto& [tf, tl] = sections[0].front();
  for (std::size_t ci = tf; ci < tl; ++ci) {
    if (file.code(ci).kind != lex::Kind::String) return std::nullopt;
    const std::string_view lit = file.text(ci);
    const std::size_t q = lit.find('"');
    if (q == std::string_view::npos || lit.size() < q + 2) return std::nullopt;
    s.templ += lit.substr(q + 1, lit.size() - q - 2);
  }
  if (tf >= tl) return std::nullopt;
  for (std::size_t sec = 1; sec <= 2 && sec < sections.size(); ++sec) {
    for (const auto& [f, l] : sections[sec]) {
      if (f >= l) continue;  // an empty section
      std::size_t ci = f;
      PtxOperand op;
      if (file.is(ci, "[") && file.is_identifier(ci + 1) && file.is(ci + 2, "]")) {
        op.name = file.text(ci + 1);
        ci += 3;
      }
      if (ci >= l || file.code(ci).kind != lex::Kind::String) return std::nullopt;
      const std::string_view c = file.text(ci);
      op.constraint = c.substr(1, c.size() - 2);
      ++ci;
      if (!file.is(ci, "(")) return std::nullopt;
      const std::size_t rp = file.match_bracket(ci);
      if (rp == lex::npos || rp + 1 != l || rp == ci + 1) return std::nullopt;
      op.expr = file.span_text(ci + 1, rp - 1);
      (sec == 1 ? s.outputs : s.inputs).push_back(std::move(op));
    }
  }
  return s;
}

}  // namespace ferry::targets::hip
