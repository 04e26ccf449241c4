#include "analysis/wave64_fix.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <numeric>
#include <optional>
#include <string>

#include "analysis/coop_groups.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"

namespace ferry::analysis {

using detail::is_warp_width_name;
using migrate::FileMigration;
using migrate::npos;

namespace {

// ---- small token helpers ----------------------------------------------------------------------

bool one_of(std::string_view t, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), t) != set.end();
}

std::optional<long long> int_value(std::string_view t) {
  std::string s;
  for (char c : t)
    if (c != '\'') s += c;
  while (!s.empty() && one_of(std::string_view(&s.back(), 1), {"u", "U", "l", "L"})) s.pop_back();
  if (s.empty()) return std::nullopt;
  int base = 10;
  std::size_t i = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
  else if (s.size() > 1 && s[0] == '0') base = 8, i = 1;
  long long v = 0;
  for (; i < s.size(); ++i) {
    int d;
    const char c = s[i];
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    if (d >= base || v > (1ll << 40)) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

bool narrow_literal(std::string_view t) { return t.find_first_of("lL") == std::string_view::npos; }

bool is_warp_op(std::string_view s) {
  // ferry_tile_shfl*: compat/tile_shfl.h's form of a tile shuffle of a vector value.
  return s.starts_with("__shfl") || s.starts_with("__ballot") || s.starts_with("ferry_tile_shfl") ||
         one_of(s,
                {"__any", "__all", "__any_sync", "__all_sync", "__uni_sync", "__activemask", "__syncwarp", "__lane_id",
                 "__builtin_amdgcn_wave_barrier", "__builtin_amdgcn_ds_bpermute", "__builtin_amdgcn_ds_swizzle"}) ||
         s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync"));
}

// WMMA calls (nvcuda::wmma, rocwmma): the whole warp -- a whole wavefront with rocWMMA -- runs
// each one on the fragment it shares.
bool is_wmma_op(std::string_view s) {
  return one_of(s, {"mma_sync", "load_matrix_sync", "store_matrix_sync", "fill_fragment", "bmma_sync"});
}

// Member calls of cooperative-groups tiles that move data between lanes.
bool is_tile_warp_member(std::string_view s) {
  return one_of(s, {"shfl", "shfl_down", "shfl_up", "shfl_xor", "ballot", "any", "all", "match_any", "match_all"});
}

bool is_int_type_word(std::string_view s) {
  return one_of(s, {"unsigned", "signed", "int", "long", "short", "uint32_t", "int32_t", "uint", "uint64_t", "int64_t",
                    "size_t"});
}

// The integer type words of a declaration that are 32 bits wide: "unsigned", "unsigned int",
// "int", "uint32_t", "uint", "int32_t".
bool is_32bit_type(const std::vector<std::string_view>& w) {
  if (w.size() == 2 && w[0] == "unsigned" && w[1] == "int") return true;
  if (w.size() == 2 && w[0] == "signed" && w[1] == "int") return true;
  return w.size() == 1 && one_of(w[0], {"unsigned", "int", "uint32_t", "uint", "int32_t", "signed"});
}

bool is_64bit_type(const std::vector<std::string_view>& w) {
  if (w.size() >= 2 && w[w.size() - 1] == "long" && w[w.size() - 2] == "long") return true;
  if (w.size() == 3 && w[1] == "long" && w[2] == "int") return true;
  return w.size() == 1 && one_of(w[0], {"uint64_t", "int64_t", "size_t", "auto", "long"});
}

// One file as the planner reads it: its lex::CodeView (the FileMigration) under short names, all
// safe past the end as CodeView's are, plus the file's facts and two statement-level readers.
struct Tokens {
  const FileMigration& f;
  const FileFacts& facts;
  [[nodiscard]] std::size_t size() const { return f.code_size(); }
  [[nodiscard]] bool is(std::size_t ci, std::string_view s) const { return f.is(ci, s); }
  [[nodiscard]] std::string_view t(std::size_t ci) const { return f.text(ci); }
  [[nodiscard]] bool ident(std::size_t ci) const { return f.is_identifier(ci); }
  [[nodiscard]] bool number(std::size_t ci) const { return f.is_number(ci); }
  [[nodiscard]] std::size_t partner(std::size_t ci) const { return f.partner(ci); }
  [[nodiscard]] bool member(std::size_t ci) const { return f.is_member_name(ci); }
  [[nodiscard]] std::uint32_t at(std::size_t ci) const { return f.code(ci).begin; }
  [[nodiscard]] std::uint32_t end(std::size_t ci) const { return f.code(ci).end; }
  [[nodiscard]] std::uint32_t line(std::size_t ci) const { return f.code(ci).line; }
  [[nodiscard]] bool ends_operand(std::size_t ci) const {
    if (ci >= size()) return false;
    const lex::Kind k = f.code(ci).kind;
    if (k == lex::Kind::Identifier)
      return !one_of(t(ci), {"return", "case", "sizeof", "else", "do", "const", "int", "unsigned", "auto", "long"});
    return k == lex::Kind::Number || is(ci, ")") || is(ci, "]");
  }
  // The statement around `ci` inside [lo, hi]: after the previous ';', '{' or '}' up to the next
  // one; a `for (...)` header counts as one statement.
  [[nodiscard]] std::pair<std::size_t, std::size_t> statement(std::size_t ci, std::size_t lo, std::size_t hi) const {
    std::size_t a = ci;
    int depth = 0;
    while (a > lo) {
      const std::size_t p = a - 1;
      if (is(p, ")") || is(p, "]")) ++depth;
      else if (is(p, "(") || is(p, "[")) {
        if (depth == 0 && p > lo && is(p - 1, "for")) {
          a = p - 1;
          break;
        }
        if (depth > 0) --depth;
      } else if (depth == 0 && (is(p, ";") || is(p, "{") || is(p, "}"))) break;
      a = p;
    }
    std::size_t b = ci;
    if (is(a, "for") && is(a + 1, "(") && partner(a + 1) != npos) b = partner(a + 1);
    else
      while (b + 1 < hi && !is(b + 1, ";") && !is(b + 1, "{") && !is(b + 1, "}")) ++b;
    return {a, b};
  }
};

// ---- the project model -----------------------------------------------------------------------

struct Fn {
  std::size_t file = 0;
  std::size_t index = 0;  // in FileFacts::functions
  bool device = false;
  bool direct_warp = false;
  std::uint32_t wmma_line = 0;  // line of its first WMMA call (a fragment is the wavefront's), 0: none
  bool warp = false;
  std::vector<std::size_t> callees;
  std::vector<std::size_t> launched;   // kernels this function launches
  std::vector<std::size_t> constants;  // warp-width constant ids it uses
  std::vector<std::string> macros;     // lane-math macros it uses
};

struct Constant {
  std::size_t file;
  std::string name;
  const ConstantInfo* info;
};

struct Site {
  Diag code;
  bool anchored = true;  // a hazard the checks report (else a role edit that comes with them)
  std::size_t file;
  std::uint32_t anchor;  // byte offset of the reported token
  std::vector<Wave64ByteEdit> edits;
  std::uint32_t widened_var = UINT32_MAX;
  std::uint32_t widened_call = UINT32_MAX;
};

struct Blocker {
  std::size_t file;
  std::uint32_t line;
  std::string reason;
};

// Splits [a, b] at top-level commas.
std::vector<std::pair<std::size_t, std::size_t>> split_commas(const Tokens& v, std::size_t a, std::size_t b) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t start = a;
  for (std::size_t i = a; i <= b; ++i) {
    if ((v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) && v.partner(i) != npos && v.partner(i) <= b) {
      i = v.partner(i);
      continue;
    }
    if (v.is(i, ",")) {
      out.push_back({start, i - 1});
      start = i + 1;
    }
  }
  if (start <= b) out.push_back({start, b});
  return out;
}

// End of the expression that starts at `a` (before `;`, or `,`/`)` at depth 0).
std::size_t expr_end(const Tokens& v, std::size_t a, std::size_t limit) {
  std::size_t i = a;
  while (i < limit) {
    if ((v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) && v.partner(i) != npos) {
      i = v.partner(i) + 1;
      continue;
    }
    if (v.is(i, ";") || v.is(i, ",") || v.is(i, ")") || v.is(i, "]") || v.is(i, "}")) break;
    ++i;
  }
  return i == a ? a : i - 1;
}

// The code index of the kernel name before a `<<<` at `open` (back over template arguments).
std::size_t launched_name(const Tokens& v, std::size_t open, std::size_t lo) {
  std::size_t k = open - 1;
  if (v.is(k, ">")) {
    int depth = 0;
    for (; k > lo; --k) {
      if (v.is(k, ">")) ++depth;
      else if (v.is(k, ">>")) depth += 2;
      else if (v.is(k, "<") && --depth == 0) break;
    }
    --k;
  }
  return v.ident(k) ? k : npos;
}

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : p_(n) { std::iota(p_.begin(), p_.end(), 0); }
  std::size_t find(std::size_t x) { return p_[x] == x ? x : p_[x] = find(p_[x]); }
  void unite(std::size_t a, std::size_t b) { p_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> p_;
};

class Planner {
 public:
  Planner(const std::vector<Wave64FixInput>& in, const Profile& p, const WarpConstantUses& uses,
          const Wave64FixOptions& options)
      : in_(in), profile_(p), uses_(uses), options_(options) {}

  Wave64FixPlan run();

 private:
  Tokens tok(std::size_t file) const { return Tokens{*in_[file].file, *in_[file].facts}; }
  const FunctionInfo& info(const Fn& fn) const { return in_[fn.file].facts->functions[fn.index]; }
  std::string where(std::size_t file, std::uint32_t line) const { return in_[file].key + ":" + std::to_string(line); }

  void collect_includes();
  void collect_functions();
  void collect_constants();
  void link();
  int tu_rank(std::size_t file, std::size_t other) const;
  std::vector<std::size_t> resolve_function(std::size_t file, std::string_view name) const;
  std::vector<std::size_t> resolve_constant(std::size_t file, std::string_view name) const;

  // Per member function of a component: its sites, and what blocks the component.
  void scan_function(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers);
  void scan_host_launcher(std::size_t fid, const std::set<std::size_t>& kernels, std::vector<Blocker>& blockers);
  void scan_macro_launches(const std::set<std::size_t>& kernels, std::vector<Blocker>& blockers) const;
  bool row_mode(const std::vector<std::size_t>& ids, const std::vector<bool>& lane_ctx,
                const std::set<std::size_t>& kernels, std::vector<Site>& edits) const;
  // The logical-warp form: the component keeps its 32-lane warps, each half of a wavefront one.
  // Returns an empty string (and the edits) when every cross-lane operation can be confined to
  // its half, else why not.
  std::string logical_mode(const std::vector<std::size_t>& ids, const std::vector<bool>& lane_ctx,
                           std::vector<Site>& edits) const;
  // The functions `ids` call, directly or not, with `ids` themselves.
  std::set<std::size_t> reach_of(const std::vector<std::size_t>& ids) const;
  // Why inline assembly in a device function of `reach` (a PTX mma, cp.async, ldmatrix: code the
  // port cannot carry, which sees the physical wavefront) stops a form, or "" when there is none.
  std::string inline_asm_reason(const std::set<std::size_t>& reach) const;
  // Form (a) of a WMMA component (docs/wave64.md, "WMMA"): a wavefront does one CUDA warp's work,
  // every launch doubles the block in x, warp indices count 64 threads, lanes stay `% 32`.
  // Returns an empty string (and the edits) when the three soundness conditions hold, else why not.
  std::string wmma_mode(const std::vector<std::size_t>& ids, const std::set<std::size_t>& kernels,
                        std::vector<Site>& edits) const;
  // The extents of a launch's block argument [a, b] in function `fid`: every x it can take, the
  // largest y * z, and how the argument is written; `why` is non-empty when they are not known.
  struct BlockExtents {
    std::set<long long> x;
    long long yz = 1;
    int form = 0;  // the index into wmma_doubled_block_forms: 0 integer, 1 dim3 variable, 2 dim3(...)
    std::string why;
  };
  BlockExtents block_extents(std::size_t fid, std::size_t a, std::size_t b) const;
  // The values a block-size expression of function `fid` can take (constants, both arms of a
  // ternary, every definition of a variable, range-for lists, the arguments at the call sites of
  // a parameter or template parameter); `multiple` when it is a multiple of a warp-width constant.
  struct Values {
    std::set<long long> known;
    bool unknown = false;
    bool multiple = false;
  };
  Values values(std::size_t fid, std::size_t a, std::size_t b, int depth) const;
  void call_site_values(std::size_t fid, std::size_t param, bool template_arg, int depth, Values& out) const;
  void scan_masks(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers);
  void constant_site(std::size_t cid, std::vector<Site>& sites, std::vector<Blocker>& blockers);

  const std::vector<Wave64FixInput>& in_;
  const Profile& profile_;
  const WarpConstantUses& uses_;
  const Wave64FixOptions options_;
  std::vector<Fn> fns_;
  std::multimap<std::string, std::size_t> fn_by_name_;
  // Per file: the files of the project it includes, directly or not (its translation unit when
  // it is a source), and the files that include it.
  std::vector<std::set<std::size_t>> includes_;
  std::vector<std::set<std::size_t>> includers_;
  std::vector<Constant> consts_;
  std::multimap<std::string, std::size_t> const_by_name_;
  // Names (macros, constants) derived from a warp-width constant, per file: name -> constant ids.
  std::map<std::string, std::map<std::size_t, std::vector<std::size_t>>> derived_;  // name -> file -> roots
  std::set<std::string> lane_macros_;
  std::set<std::string> warp_macros_;  // macros whose body has a warp operation or warpSize
  std::set<std::string> asm_macros_;   // macros whose body has inline assembly
  // Macros whose body reads thread ids or has atomics or printf: form (a) cannot see their uses.
  std::set<std::string> clone_unsafe_macros_;
  // Names a macro body calls (`NAME(`): functions the callee links of a component do not follow.
  std::map<std::string, std::set<std::string>> macro_calls_;
  std::set<std::string> mask_helpers_;                           // functions returning a lane mask
  std::set<std::pair<std::size_t, std::size_t>> covered_masks_;  // (file, code index) of rewritten masks
  // Host warp counts (`blockDim.x / 32`) of the component being scanned: (file, byte offset of '/').
  std::vector<std::pair<std::size_t, std::uint32_t>> host_counts_;
};

bool declared_device(const Tokens& v, std::size_t name_ci) {
  for (std::size_t d = name_ci; d > 0; --d) {
    const std::size_t p = d - 1;
    if (v.f.code(p).in_directive || v.is(p, ";") || v.is(p, "}") || v.is(p, "{")) break;
    if (v.is(p, "__device__") || v.is(p, "__global__")) return true;
  }
  return false;
}

// A name called or launched in `file` means a definition the compiler sees there: in the file,
// else in what it includes, else (a header's call) in the files that include it. Only when none
// of those defines it can the definition be in another translation unit (a kernel launched
// through a declaration), and then every definition elsewhere counts. Corpora of standalone
// programs define the same helper and constant names in many .cu files; without this order they
// all become one component, and one unfixable file blocks every other.
int Planner::tu_rank(std::size_t file, std::size_t other) const {
  if (other == file) return 0;
  if (includes_[file].count(other)) return 1;
  if (includers_[file].count(other)) return 2;
  return 3;
}

std::vector<std::size_t> Planner::resolve_function(std::size_t file, std::string_view name) const {
  std::vector<std::size_t> best;
  int best_rank = 4;
  const auto [lo, hi] = fn_by_name_.equal_range(std::string(name));
  for (auto it = lo; it != hi; ++it) {
    const int r = tu_rank(file, fns_[it->second].file);
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.push_back(it->second);
  }
  return best;
}

// A constant the file neither defines nor reaches through its includes can still come from a
// header found through an -I folder or an angle include, never from another source file.
bool is_header_key(const std::string& key) {
  const std::string e = std::filesystem::path(key).extension().string();
  return one_of(e, {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc"});
}

std::vector<std::size_t> Planner::resolve_constant(std::size_t file, std::string_view name) const {
  std::vector<std::size_t> best;
  int best_rank = 4;
  const auto [lo, hi] = const_by_name_.equal_range(std::string(name));
  for (auto it = lo; it != hi; ++it) {
    const int r = tu_rank(file, consts_[it->second].file);
    if (r == 3 && !is_header_key(in_[consts_[it->second].file].key)) continue;
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.push_back(it->second);
  }
  if (!best.empty()) return best;
  const auto d = derived_.find(std::string(name));
  if (d == derived_.end()) return {};
  for (const auto& [f, roots] : d->second) {
    const int r = tu_rank(file, f);
    if (r == 3 && !is_header_key(in_[f].key)) continue;
    if (r < best_rank) best.clear(), best_rank = r;
    if (r == best_rank) best.insert(best.end(), roots.begin(), roots.end());
  }
  return best;
}

void Planner::collect_includes() {
  namespace fs = std::filesystem;
  std::map<std::string, std::size_t> by_key;
  std::multimap<std::string, std::size_t> by_name;  // file name -> files
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const fs::path k = fs::path(in_[f].key).lexically_normal();
    by_key.emplace(k.generic_string(), f);
    by_name.emplace(k.filename().string(), f);
  }
  std::vector<std::set<std::size_t>> direct(in_.size());
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const Tokens v = tok(f);
    const fs::path dir = fs::path(in_[f].key).lexically_normal().parent_path();
    for (std::size_t ci = 0; ci < v.size(); ++ci) {
      if (v.f.code(ci).kind != lex::Kind::HeaderName) continue;
      const std::string_view h = v.t(ci);
      if (h.size() < 3 || h.front() != '"') continue;
      const fs::path inc = fs::path(std::string(h.substr(1, h.size() - 2))).lexically_normal();
      // next to the file, else under the project root, else every project file with that path
      // ending (found through an -I folder: "utils.h" from kernels/flash-attn/utils/)
      std::vector<std::size_t> hits;
      for (const fs::path& c : {(dir / inc).lexically_normal(), inc})
        if (const auto it = by_key.find(c.generic_string()); it != by_key.end()) {
          hits.push_back(it->second);
          break;
        }
      if (hits.empty()) {
        const std::string tail = "/" + inc.generic_string();
        const auto [lo, hi] = by_name.equal_range(inc.filename().string());
        for (auto it = lo; it != hi; ++it) {
          const std::string k = "/" + fs::path(in_[it->second].key).lexically_normal().generic_string();
          if (k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0)
            hits.push_back(it->second);
        }
      }
      for (std::size_t t : hits)
        if (t != f) direct[f].insert(t);
    }
  }
  includes_.assign(in_.size(), {});
  includers_.assign(in_.size(), {});
  for (std::size_t f = 0; f < in_.size(); ++f) {
    std::vector<std::size_t> todo(direct[f].begin(), direct[f].end());
    while (!todo.empty()) {
      const std::size_t t = todo.back();
      todo.pop_back();
      if (t == f || !includes_[f].insert(t).second) continue;
      for (std::size_t n : direct[t]) todo.push_back(n);
    }
    for (std::size_t t : includes_[f]) includers_[t].insert(f);
  }
}

void Planner::collect_functions() {
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const FileFacts& facts = *in_[f].facts;
    const Tokens v = tok(f);
    for (std::size_t i = 0; i < facts.functions.size(); ++i) {
      Fn fn;
      fn.file = f;
      fn.index = i;
      const FunctionInfo& fi = facts.functions[i];
      fn.device = fi.is_kernel || declared_device(v, fi.name_ci);
      for (std::size_t ci = fi.body_open + 1; ci < fi.body_close; ++ci) {
        if (!v.ident(ci)) continue;
        // warpSize counts too: values derived from it grow to 63 on wave64, where 32-lane
        // structures beside them no longer fit
        if (v.member(ci) ? is_tile_warp_member(v.t(ci)) && v.is(ci + 1, "(")
                         : is_warp_op(v.t(ci)) || v.is(ci, "warpSize"))
          fn.direct_warp = true;
        if (!v.member(ci) && is_wmma_op(v.t(ci)) && v.is(ci + 1, "(")) {
          fn.direct_warp = true;
          if (fn.wmma_line == 0) fn.wmma_line = v.line(ci);
        }
      }
      fn_by_name_.emplace(fi.name, fns_.size());
      fns_.push_back(std::move(fn));
    }
    // Macros that hide lane math: `#define LANE (threadIdx.x & 31)`.
    for (std::size_t ci = 0; ci + 2 < v.size(); ++ci) {
      if (!(v.f.code(ci).in_directive && v.is(ci, "#") && v.is(ci + 1, "define") && v.ident(ci + 2))) continue;
      const std::uint32_t line = v.line(ci);
      bool thread = false, lane = false;
      std::size_t j = ci + 3;
      for (; j < v.size() && v.f.code(j).in_directive && v.line(j) >= line && !(v.is(j, "#") && j > ci); ++j) {
        thread |= v.is(j, "threadIdx") || v.is(j, "__lane_id");
        if (v.number(j)) {
          const auto val = int_value(v.t(j));
          if ((val == 31 && v.is(j - 1, "&")) || (val == 32 && (v.is(j - 1, "%") || v.is(j - 1, "/"))) ||
              (val == 5 && v.is(j - 1, ">>")))
            lane = true;
        }
      }
      if (thread && lane) lane_macros_.insert(std::string(v.t(ci + 2)));
      for (std::size_t q = ci + 3; q < j; ++q) {
        if (!v.ident(q)) continue;
        if (one_of(v.t(q), {"asm", "__asm__", "__asm"})) asm_macros_.insert(std::string(v.t(ci + 2)));
        if (one_of(v.t(q), {"threadIdx", "blockDim", "printf", "__lane_id"}) || v.t(q).starts_with("atomic") ||
            v.t(q).starts_with("__atomic") || v.t(q).starts_with("__hip_atomic"))
          clone_unsafe_macros_.insert(std::string(v.t(ci + 2)));
        if (v.is(q + 1, "(") && !v.member(q)) macro_calls_[std::string(v.t(ci + 2))].insert(std::string(v.t(q)));
        // A macro named like a warp intrinsic (`#define __any_sync(m, p) __any(p)`, a compat shim)
        // hides nothing: its uses are calls of that intrinsic, which the fixer sees and rewrites.
        if (is_warp_op(v.t(ci + 2))) continue;
        if (is_warp_op(v.t(q)) || v.is(q, "warpSize") || (v.member(q) && is_tile_warp_member(v.t(q))))
          warp_macros_.insert(std::string(v.t(ci + 2)));
      }
      ci = j - 1;
    }
  }
}

void Planner::collect_constants() {
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const FileFacts& facts = *in_[f].facts;
    for (const auto& [name, c] : facts.constants) {
      if (c.value != 32 || !is_warp_width_name(name)) continue;
      const_by_name_.emplace(name, consts_.size());
      consts_.push_back({f, name, &c});
    }
  }
  // Constants and macros defined from a warp-width constant follow it.
  for (std::size_t f = 0; f < in_.size(); ++f) {
    const Tokens v = tok(f);
    for (const auto& [name, c] : in_[f].facts->constants) {
      if (const_by_name_.count(name)) continue;
      std::vector<std::size_t> roots;
      for (std::size_t j = c.first_ci; j <= c.last_ci && j < v.size(); ++j)
        if (v.ident(j) && v.t(j) != name)
          for (std::size_t r : resolve_constant(f, v.t(j))) roots.push_back(r);
      if (!roots.empty()) derived_[name][f] = roots;
    }
  }
}

void Planner::link() {
  for (std::size_t id = 0; id < fns_.size(); ++id) {
    Fn& fn = fns_[id];
    const Tokens v = tok(fn.file);
    const FunctionInfo& fi = info(fn);
    // Defaults of its template parameters, `template <int W = WARP_SIZE>`: constants it uses.
    for (std::size_t ci = fi.name_ci; ci > 0;) {
      --ci;
      if (v.is(ci, ";") || v.is(ci, "{") || v.is(ci, "}")) break;
      if (v.ident(ci) && v.is(ci - 1, "=") && (v.is(ci + 1, ">") || v.is(ci + 1, ",")))
        for (std::size_t c : resolve_constant(fn.file, v.t(ci))) fn.constants.push_back(c);
    }
    for (std::size_t ci = fi.body_open + 1; ci < fi.body_close; ++ci) {
      if (v.f.code(ci).kind == lex::Kind::LaunchOpen) {
        const std::size_t k = launched_name(v, ci, fi.body_open);
        if (k != npos)
          for (std::size_t c : resolve_function(fn.file, v.t(k))) fn.launched.push_back(c);
        continue;
      }
      if (!v.ident(ci) || v.member(ci)) continue;
      const std::string_view name = v.t(ci);
      if (name == "hipLaunchKernelGGL" && v.is(ci + 1, "(")) {
        std::size_t k = ci + 2;
        if (v.is(k, "HIP_KERNEL_NAME") && v.is(k + 1, "(")) k += 2;
        if (v.ident(k))
          for (std::size_t c : resolve_function(fn.file, v.t(k))) fn.launched.push_back(c);
        continue;
      }
      bool call = v.is(ci + 1, "(");
      if (!call && v.is(ci + 1, "<")) {  // f<T, N>(...)
        int depth = 0;
        for (std::size_t j = ci + 1; j < fi.body_close; ++j) {
          if (v.is(j, "<")) ++depth;
          else if (v.is(j, ">")) {
            if (--depth == 0) {
              call = v.is(j + 1, "(");
              break;
            }
          } else if (v.is(j, ">>")) {
            depth -= 2;
            if (depth <= 0) {
              call = depth == 0 && v.is(j + 1, "(");
              break;
            }
          } else if (v.is(j, ";") || v.is(j, "{") || v.is(j, ")")) {
            break;
          }
        }
      }
      if (call) {
        // A qualified call (`cg::sync(cta)`) with no definition in its translation unit is a
        // library's: another program's function of that name is not it.
        const bool qualified = ci > 0 && v.is(ci - 1, "::");
        for (std::size_t c : resolve_function(fn.file, name))
          if (c != id && !(qualified && tu_rank(fn.file, fns_[c].file) == 3)) fn.callees.push_back(c);
        continue;
      }
      for (std::size_t c : resolve_constant(fn.file, name)) fn.constants.push_back(c);
      if (lane_macros_.count(std::string(name))) fn.macros.emplace_back(name);
    }
  }
  // A function calling one with a warp operation works with warps too.
  for (Fn& fn : fns_) fn.warp = fn.direct_warp;
  for (bool changed = true; changed;) {
    changed = false;
    for (Fn& fn : fns_) {
      if (fn.warp) continue;
      for (std::size_t c : fn.callees)
        if (fns_[c].warp) {
          fn.warp = true;
          changed = true;
          break;
        }
    }
  }
}

// ---- sites ----------------------------------------------------------------------------------

Wave64ByteEdit replace_token(const Tokens& v, std::size_t ci, std::string text) {
  return {v.at(ci), v.end(ci), std::move(text)};
}

// What the row and logical forms write where the CUDA had nothing or something else, recorded for
// the way back (the cuda target's record_restore and logical_warp passes, docs/wave64.md "Round
// trips"): a shuffle width they add, and CUDA's warpSize where a logical warp needs 32.
constexpr std::string_view kAddedWidth = ", 32 /* ferry-cuda: (none) */";
constexpr std::string_view kWarpSize32 = "32 /* ferry-cuda: warpSize */";
// The half of the wavefront a lane is in, as a shift: 0 or 32 on AMD, 0 on NVIDIA. HIP output
// can ask __lane_id(); CUDA output (analyze --fix, to be ported later) needs a form both have.
constexpr std::string_view kHipHalf = "(__lane_id() & 32)";
constexpr std::string_view kCudaHalf =
    "(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % warpSize & 32)";

// A code token followed (on its line, whitespace between) by a `/* ferry-cuda: ... */` record.
bool recorded(const Tokens& v, std::size_t ci) {
  const auto& toks = v.f.tokens();
  for (std::size_t k = v.f.token_index(ci) + 1; k < toks.size(); ++k) {
    if (toks[k].kind == lex::Kind::Whitespace) continue;
    return toks[k].kind == lex::Kind::BlockComment && toks[k].text(v.f.source()).starts_with("/* ferry-cuda: ");
  }
  return false;
}

// The logical form's half of a ballot, as written at the `__ballot`/`__ballot_sync` token `i`:
// `(unsigned)(__ballot(P) >> HALF)` with HALF `(__lane_id() & 32)` (or, in CUDA output, the
// linear thread id form). Returns the index of the closing `)` of `(unsigned)(...)`, or npos.
std::size_t ballot_half_end(const Tokens& v, std::size_t i, std::string_view half) {
  if (i < 4 || !v.is(i - 1, "(") || !v.is(i - 2, ")") || !v.is(i - 3, "unsigned") || !v.is(i - 4, "(")) return npos;
  if (!v.is(i + 1, "(") || v.partner(i + 1) == npos) return npos;
  const std::size_t close = v.partner(i + 1);
  if (!v.is(close + 1, ">>") || !v.is(close + 2, "(") || v.partner(close + 2) == npos) return npos;
  const std::size_t half_close = v.partner(close + 2);
  std::string text;
  for (std::size_t q = close + 2; q <= half_close; ++q) text += v.t(q);
  std::string want;
  for (char c : half)
    if (c != ' ') want += c;
  if (text != want || !v.is(half_close + 1, ")") || v.partner(half_close + 1) != i - 1) return npos;
  return half_close + 1;
}

// Is the value of code range [first, last] lane-, warp- or thread-derived?
unsigned taint_of(const Tokens& v, const FunctionInfo& fi, std::size_t first, std::size_t last) {
  if (first > last) return 0;
  return range_taint(v.f, v.facts, fi.defs, first, last);
}

// A width guard of an unrolled butterfly: `if (W >= 32) v += __shfl_down_sync(m, v, 16);` with `i`
// the guard's number 2k and W a value that is no lane or thread id (a template width, a
// constant). Returns the step's offset token k, or npos.
std::size_t guarded_shuffle_step(const Tokens& v, const FunctionInfo& fi, std::size_t sa, std::size_t sb,
                                 std::size_t i) {
  if (!v.is(sa, "if") || !v.is(sa + 1, "(") || v.partner(sa + 1) != i + 1 || i != sa + 4) return npos;
  if (!v.is(i - 1, ">=") || !v.ident(i - 2) || v.member(i - 2) || (taint_of(v, fi, i - 2, i - 2) & 3) != 0) return npos;
  const auto guard = int_value(v.t(i));
  if (!guard || *guard % 2 != 0 || !v.is(sb + 1, ";")) return npos;
  for (std::size_t q = i + 2; q + 1 <= sb; ++q) {
    if (!v.ident(q) || !v.is(q + 1, "(") ||
        !one_of(v.t(q), {"__shfl_xor", "__shfl_xor_sync", "__shfl_down", "__shfl_down_sync"}))
      continue;
    const auto args = v.f.call_args(q + 1);
    const std::size_t lane_at = v.t(q).ends_with("_sync") ? 2 : 1;
    if (args.size() != lane_at + 1 || args[lane_at].first != args[lane_at].last) return npos;
    const std::size_t k = args[lane_at].first;
    const auto off = v.number(k) ? int_value(v.t(k)) : std::nullopt;
    return off && *off * 2 == *guard ? k : npos;
  }
  return npos;
}

// Variables of `fi` holding a warp index: defined with `>> 5`, `/ 32`, `/ warpSize` or the
// division by a warp-width constant.
std::set<std::string_view> warp_index_vars(const Tokens& v, const FunctionInfo& fi) {
  std::set<std::string_view> out;
  for (const VarDef& d : fi.defs) {
    if (!(d.taint & 2)) continue;
    for (std::size_t j = d.at + 1; j < fi.body_close && !v.is(j, ";") && !v.is(j, ","); ++j) {
      const bool div = v.is(j, "/") || v.is(j, ">>");
      if (!div) continue;
      const long long n = v.number(j + 1) ? int_value(v.t(j + 1)).value_or(-1) : -1;
      if ((v.is(j, ">>") && n == 5) ||
          (v.is(j, "/") && (n == 32 || v.is(j + 1, "warpSize") || (v.ident(j + 1) && is_warp_width_name(v.t(j + 1))))))
        out.insert(d.name);
    }
  }
  return out;
}

struct LoopInfo {
  std::size_t hit = npos;  // the literal the check reports
  bool halving = false;
  bool safe = false;
  std::string why;                    // when not safe
  std::vector<Wave64ByteEdit> edits;  // when safe
};

// `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o);` and the ascending form.
LoopInfo shuffle_loop(const Tokens& v, std::size_t ci) {
  LoopInfo L;
  const std::size_t close = v.partner(ci + 1);
  if (close == npos) return L;
  std::vector<std::size_t> semis;
  for (std::size_t i = ci + 2; i < close; ++i) {
    if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
      if (v.partner(i) != npos) i = v.partner(i);
      continue;
    }
    if (v.is(i, ";")) semis.push_back(i);
  }
  if (semis.size() != 2) return L;
  std::size_t eq = npos;
  for (std::size_t i = ci + 2; i < semis[0]; ++i)
    if (v.is(i, "=")) {
      eq = i;
      break;
    }
  if (eq == npos || !v.ident(eq - 1) || eq + 2 != semis[0] || !v.number(eq + 1)) return L;
  const std::string_view var = v.t(eq - 1);
  const auto start = int_value(v.t(eq + 1));
  std::string step, cond;
  for (std::size_t i = semis[1] + 1; i < close; ++i) step += v.t(i);
  for (std::size_t i = semis[0] + 1; i < semis[1]; ++i) cond += v.t(i);
  const std::string vs(var);
  const bool halving =
      one_of(step, {vs + ">>=1", vs + "/=2"}) || step == vs + "=" + vs + ">>1" || step == vs + "=" + vs + "/2";
  const bool doubling =
      one_of(step, {vs + "<<=1", vs + "*=2"}) || step == vs + "=" + vs + "<<1" || step == vs + "=" + vs + "*2";
  std::size_t bound = npos;
  if (halving && start == 16) L.hit = eq + 1;
  if (doubling && start == 1 && (cond == vs + "<32" || cond == vs + "<=16"))
    for (std::size_t i = semis[0] + 1; i < semis[1]; ++i)
      if (v.number(i)) L.hit = bound = i;
  if (L.hit == npos) return L;
  std::size_t body_first = close + 1, body_last;
  if (v.is(body_first, "{")) {
    body_last = v.partner(body_first);
    if (body_last == npos) {
      L.hit = npos;
      return L;
    }
  } else {
    body_last = body_first;
    while (body_last < v.size() && !v.is(body_last, ";")) {
      if (v.partner(body_last) != npos && (v.is(body_last, "(") || v.is(body_last, "{") || v.is(body_last, "[")))
        body_last = v.partner(body_last);
      ++body_last;
    }
  }
  L.halving = halving;
  bool shuffles = false;
  bool safe = true;
  std::vector<Wave64ByteEdit> width_edits;
  for (std::size_t i = body_first; i <= body_last && i < v.size(); ++i) {
    if (v.ident(i) && v.t(i).starts_with("__shfl") && v.is(i + 1, "(")) {
      shuffles = true;
      const std::string_view name = v.t(i);
      const bool sync = name.ends_with("_sync");
      const bool kind_ok = halving ? one_of(name, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"})
                                   : one_of(name, {"__shfl_up_sync", "__shfl_up", "__shfl_xor_sync", "__shfl_xor"});
      const auto args = v.f.call_args(i + 1);
      const std::size_t off_at = sync ? 2 : 1;
      if (!kind_ok || args.size() < off_at + 1 || args.size() > off_at + 2) {
        safe = false;
        L.why = "the loop calls " + std::string(name) + " in a form the fixer does not rewrite";
        continue;
      }
      const migrate::ArgRange& off = args[off_at];
      if (off.first != off.last || v.t(off.first) != var) {
        safe = false;
        L.why = "the shuffle offset is not the loop variable alone";
      }
      if (args.size() == off_at + 2) {  // an explicit width: fine only as the literal 32
        const migrate::ArgRange& w = args[off_at + 1];
        if (w.first == w.last && v.number(w.first) && int_value(v.t(w.first)) == 32) {
          width_edits.push_back(replace_token(v, w.first, "warpSize"));
        } else {
          safe = false;
          L.why = "the shuffle has a width argument other than 32";
        }
      }
      i = v.partner(i + 1) == npos ? i : v.partner(i + 1);
      continue;
    }
  }
  if (!shuffles) {
    L.hit = npos;
    return L;
  }
  L.safe = safe;
  if (!safe) return L;
  if (halving) {
    L.edits.push_back(replace_token(v, L.hit, "warpSize / 2"));
  } else {
    L.edits.push_back(replace_token(v, bound, int_value(v.t(bound)) == 32 ? "warpSize" : "warpSize / 2"));
  }
  L.edits.insert(L.edits.end(), width_edits.begin(), width_edits.end());
  return L;
}

}  // namespace

void Planner::constant_site(std::size_t cid, std::vector<Site>& sites, std::vector<Blocker>& blockers) {
  const Constant& c = consts_[cid];
  const Tokens v = tok(c.file);
  const ConstantInfo& ci = *c.info;
  // Another use of the name counts against this definition unless it is in a file with its own
  // definition of the name, of any value (each .cu of a project that defines its own WARP_SIZE).
  std::string other_where;
  if (const auto u = uses_.other_use_in.find(c.name); u != uses_.other_use_in.end()) {
    for (const auto& [path, where] : u->second) {
      bool own = false;
      if (path != in_[c.file].file->path())
        for (const Wave64FixInput& f : in_)
          if (f.file->path() == path && f.facts->constants.count(c.name)) own = true;  // any value
      if (!own) {
        other_where = where;
        break;
      }
    }
  } else if (uses_.other_use.count(c.name)) {
    other_where = uses_.other_use_where.count(c.name) ? uses_.other_use_where.at(c.name) : "?";
  }
  if (!other_where.empty()) {
    blockers.push_back({c.file, v.line(ci.name_ci),
                        "'" + c.name + "' is also used as something other than a warp width at " + other_where});
    return;
  }
  if (v.f.excluded(ci.name_ci)) {
    blockers.push_back({c.file, v.line(ci.name_ci), "the definition of '" + c.name + "' is excluded from rewriting"});
    return;
  }
  const lex::Token& first = v.f.code(ci.first_ci);
  std::uint32_t bol = first.begin;
  while (bol > 0 && v.f.source()[bol - 1] != '\n') --bol;
  const std::string indent(v.f.source().substr(bol, first.begin - bol));
  if (indent.find_first_not_of(" \t") != std::string::npos) {
    blockers.push_back(
        {c.file, v.line(ci.name_ci), "the definition of '" + c.name + "' shares its line with other code"});
    return;
  }
  const std::string amd = "#if defined(__HIP_PLATFORM_AMD__)";
  const std::string wave = std::to_string(profile_.wave_size);
  std::string text;
  if (ci.is_macro) {
    const std::string value(v.f.span_text(ci.name_ci + 1, ci.last_ci));
    text = amd + "\n" + indent + "#define " + c.name + " " + wave + "  // ferry: wavefront width of " + profile_.name +
           "\n" + indent + "#else\n" + indent + "#define " + c.name + " " + value + "\n" + indent + "#endif";
  } else {
    const std::string decl(v.f.span_text(ci.first_ci, ci.last_ci));
    const std::string head(v.f.span_text(ci.first_ci, ci.name_ci + 1));
    text = amd + "\n" + indent + head + " " + wave + ";  // ferry: wavefront width of " + profile_.name + "\n" +
           indent + "#else\n" + indent + decl + "\n" + indent + "#endif";
  }
  Site s{Diag::WarpWidthConstant, true, c.file, v.at(ci.name_ci), {{v.at(ci.first_ci), v.end(ci.last_ci), text}}};
  sites.push_back(std::move(s));
}

void Planner::scan_function(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers) {
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  const std::size_t lo = fi.body_open + 1, hi = fi.body_close;
  std::set<std::size_t> covered;  // literal tokens a site rewrites or explains
  auto add = [&](Site s, std::initializer_list<std::size_t> cover) {
    for (std::size_t c : cover) covered.insert(c);
    sites.push_back(std::move(s));
  };
  for (const std::string& m : fn.macros)
    blockers.push_back({fn.file, v.line(fi.name_ci), "lane math hidden in the macro '" + m + "'"});

  const std::set<std::string_view> warp_vars = warp_index_vars(v, fi);
  if (warp_ctx) {
    for (std::size_t i = lo; i < hi; ++i) {
      if (!v.ident(i) || v.member(i) || !v.is(i + 1, "(")) continue;
      const std::string_view s = v.t(i);
      if (s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync")))
        blockers.push_back({fn.file, v.line(i),
                            std::string(s) + " has no HIP 5.2 form and returns a 32-bit mask in "
                                             "CUDA: the code around it is for a human to port"});
      // FRY2206: a full 32-bit mask given to a _sync intrinsic
      if (!options_.fix_masks || !s.ends_with("_sync") || !is_warp_op(s) || v.partner(i + 1) == npos) continue;
      const auto args = v.f.call_args(i + 1);
      if (args.empty() || args[0].empty()) continue;
      const auto m = eval_constant(v.f, v.facts, args[0].first, args[0].last, &fi);
      if (!m || (*m != 0xffffffffLL && *m != -1)) continue;
      Site site{Diag::FullMask32,
                true,
                fn.file,
                v.at(args[0].first),
                {{v.at(args[0].first), v.end(args[0].last), "0xffffffffffffffffull"}}};
      for (std::size_t q = args[0].first; q <= args[0].last; ++q) covered_masks_.insert({fn.file, q});
      sites.push_back(std::move(site));
    }
    for (std::size_t i = lo; i < hi; ++i) {
      // ---- lane ids and warp indices (FRY2201, FRY2202) ----
      const bool op = v.is(i, "&") || v.is(i, "%") || v.is(i, "/") || v.is(i, ">>");
      if (op && v.ends_operand(i - 1) && v.number(i + 1)) {
        const auto val = int_value(v.t(i + 1));
        const bool lane_op = (v.is(i, "&") && val == 31) || (v.is(i, "%") && val == 32);
        const bool warp_op = (v.is(i, ">>") && val == 5) || (v.is(i, "/") && val == 32);
        const std::string_view after = v.t(i + 2);
        const bool whole =
            !one_of(after, {"(", "[", ".", "->"}) &&
            !(v.is(i, "&") && one_of(after, {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "==", "!="})) &&
            !(v.is(i, ">>") && one_of(after, {"+", "-", "*", "/", "%"}));
        if ((lane_op || warp_op) && whole) {
          const std::size_t lf = detail::left_operand_first(v.f, i, lo);
          if (lf < i && (taint_of(v, fi, lf, i - 1) & 1)) {
            Site s{lane_op ? Diag::LaneId32 : Diag::WarpIndex32, true, fn.file, v.at(i), {}};
            std::vector<std::size_t> cover = {i + 1};
            if (v.is(i, "&")) s.edits.push_back(replace_token(v, i + 1, "(warpSize - 1)"));
            else if (v.is(i, "%") || v.is(i, "/")) s.edits.push_back(replace_token(v, i + 1, "warpSize"));
            // a round-up in the dividend: (n + 31) / 32, (n + 31) >> 5
            if (warp_op && v.is(i - 1, ")") && v.partner(i - 1) == lf) {
              for (std::size_t j = lf + 1; j + 1 < i - 1; ++j)
                if (v.is(j, "+") && v.number(j + 1) && int_value(v.t(j + 1)) == 31 && j + 2 == i - 1) {
                  s.edits.push_back(replace_token(v, j + 1, "warpSize - 1"));
                  cover.push_back(j + 1);
                }
            }
            if (v.is(i, ">>")) {
              const bool simple = lf == i - 1 || detail::primary_last(v.f, lf) == i - 1;
              if (simple) {
                s.edits.push_back({v.at(i), v.end(i + 1), "/ warpSize"});
              } else {
                s.edits.push_back({v.at(lf), v.at(lf), "("});
                s.edits.push_back({v.end(i - 1), v.end(i + 1), ") / warpSize"});
              }
            }
            add(std::move(s), {});
            for (std::size_t c : cover) covered.insert(c);
            continue;
          }
        }
      }
      // ---- lane bits (FRY2203) ----
      if (v.is(i, "<<") && v.number(i - 1) && int_value(v.t(i - 1)) == 1 && narrow_literal(v.t(i - 1)) &&
          !one_of(v.t(i - 2), {".", "*", "/", "%", "->"})) {
        const std::size_t rl = detail::primary_last(v.f, i + 1);
        if (rl != npos && (taint_of(v, fi, i + 1, rl) & 3)) {
          const std::string lit(v.t(i - 1));
          std::string wide = "1ull";
          if (lit.find_first_of("uU") == std::string::npos && lit != "1") wide = lit + "ll";
          add(Site{Diag::LaneBit32, true, fn.file, v.at(i - 1), {replace_token(v, i - 1, wide)}}, {i - 1});
          continue;
        }
      }
      // ---- shuffle loops (FRY2205) ----
      if (v.is(i, "for") && v.is(i + 1, "(")) {
        const LoopInfo L = shuffle_loop(v, i);
        if (L.hit != npos) {
          if (!L.safe) {
            blockers.push_back({fn.file, v.line(L.hit), "a shuffle loop: " + L.why});
            covered.insert(L.hit);
          } else {
            Site s{Diag::ShuffleLoop32, true, fn.file, v.at(L.hit), L.edits};
            add(std::move(s), {L.hit});
            for (const Wave64ByteEdit& e : L.edits)
              for (std::size_t j = i; j < v.size() && v.at(j) <= e.begin; ++j)
                if (v.at(j) == e.begin) covered.insert(j);
          }
        }
      }
    }
    // ---- per-warp shared arrays (FRY2209) ----
    for (std::size_t i = lo; i < hi; ++i) {
      if (!v.is(i, "__shared__") || (i > 0 && v.is(i - 1, "extern"))) continue;
      std::size_t j = i + 1;
      while (v.ident(j) || v.is(j, "::")) {
        if (one_of(v.t(j), {"__align__", "alignas"}) && v.is(j + 1, "(") && v.partner(j + 1) != npos) {
          j = v.partner(j + 1) + 1;
          continue;
        }
        ++j;
      }
      const std::size_t name = j - 1;
      if (!v.ident(name) || !v.is(j, "[")) continue;
      std::vector<std::pair<std::size_t, std::size_t>> extents;
      for (std::size_t k = j; v.is(k, "[") && v.partner(k) != npos; k = v.partner(k) + 1)
        extents.push_back({k + 1, v.partner(k) - 1});
      bool has32 = false;
      for (const auto& [a, b] : extents)
        for (std::size_t q = a; q <= b; ++q)
          if (v.number(q) && int_value(v.t(q)) == 32) has32 = true;
      if (!has32) continue;
      bool lane_indexed = false;
      for (std::size_t q = lo; q < hi && !lane_indexed; ++q) {
        if (q == name || !v.is(q, v.t(name)) || !v.is(q + 1, "[") || v.partner(q + 1) == npos) continue;
        if (taint_of(v, fi, q + 2, v.partner(q + 1) - 1) & 2) lane_indexed = true;
      }
      if (!lane_indexed) continue;
      for (const auto& [a, b] : extents)
        for (std::size_t q = a; q <= b; ++q)
          if (v.number(q)) covered.insert(q);
      if (extents.size() == 1) {
        const auto [a, b] = extents[0];
        const std::string e(v.f.span_text(a, b));
        const std::string text = (a == b) ? "64" : "(" + e + ") > 64 ? (" + e + ") : 64";
        add(Site{Diag::PerWarpShared32, true, fn.file, v.at(name), {{v.at(a), v.end(b), text}}}, {});
        continue;
      }
      // More dimensions ([warps][lanes], [N / 32][32]): a dimension of exactly 32 is one slot per
      // lane (or per warp) and gets 64; a count of warps `E / 32` only shrinks on wavefronts of 64
      // and stays. Any other use of 32 in a dimension (padding as in [32][33]) is not understood.
      std::vector<Wave64ByteEdit> edits;
      std::string why;
      for (const auto& [a, b] : extents) {
        bool any32 = false;
        for (std::size_t q = a; q <= b; ++q)
          if (v.number(q) && int_value(v.t(q)) == 32) any32 = true;
        if (!any32) continue;
        if (a == b) {
          edits.push_back({v.at(a), v.end(b), "64"});
        } else if (!(b >= a + 2 && v.is(b - 1, "/") && v.number(b) && int_value(v.t(b)) == 32)) {
          why = "a dimension '" + std::string(v.f.span_text(a, b)) +
                "' uses 32 other than as 32 slots or a count of warps";
          break;
        } else {
          for (std::size_t q = a; q + 1 < b; ++q)
            if (v.number(q) && int_value(v.t(q)) == 32) {
              why = "a dimension '" + std::string(v.f.span_text(a, b)) + "' uses 32 other than as a count of warps";
              break;
            }
          if (!why.empty()) break;
        }
      }
      if (!why.empty()) {
        blockers.push_back({fn.file, v.line(name), "__shared__ '" + std::string(v.t(name)) + "': " + why});
        continue;
      }
      add(Site{Diag::PerWarpShared32, true, fn.file, v.at(name), std::move(edits)}, {});
    }
  }

  // ---- the other 32-lane numbers: warp-width roles, or a blocker ----
  for (std::size_t i = lo; i < hi; ++i) {
    if (!v.number(i) || covered.count(i) || covered_masks_.count({fn.file, i})) continue;
    const auto val = int_value(v.t(i));
    if (!val) continue;
    const bool shift_five =
        *val == 5 && (v.is(i - 1, ">>") || v.is(i - 1, "<<") || v.is(i - 1, ">>=") || v.is(i - 1, "<<="));
    const bool core = *val == 16 || *val == 31 || *val == 32 || shift_five;
    const bool multiple = *val >= 64 && *val <= 4096 && *val % 32 == 0;
    if (!core && !multiple) continue;
    const auto [sa, sb] = v.statement(i, lo, hi);
    const unsigned t = taint_of(v, fi, sa, sb);
    bool warpish = false;
    for (std::size_t q = sa; q <= sb; ++q)
      if (v.ident(q) && (is_warp_op(v.t(q)) || resolve_constant(fn.file, v.t(q)).size())) warpish = true;
    if (!(t & 3) && !warpish) continue;           // not about lanes or threads
    if (!(t & 2) && !warpish && !core) continue;  // thread ids and block sizes: 256, 1024...
    if (!warp_ctx && !(t & 2) && !warpish && !fn.constants.empty()) {
      // a function that only shares a warp constant: its own thread arithmetic is not lane math
      continue;
    }
    if (warp_ctx) {
      // The width guards of an unrolled butterfly (`if (W >= 32) v += __shfl_down(v, 16); if (W >= 16)
      // v += __shfl_down(v, 8); ...`, W the width of the group being reduced): the guards of the
      // steps at 8 and below are right on any wavefront; the first step becomes a loop from the
      // wavefront's half, each step kept under its own guard, so a group of 32 stays one.
      if (const std::size_t step = guarded_shuffle_step(v, fi, sa, sb, i); step != npos && !covered.count(step)) {
        if (*val == 32)
          add(Site{Diag::ShuffleLoop32,
                   true,
                   fn.file,
                   v.at(step),
                   {{v.at(sa), v.at(sa), "for (int ferry_off = warpSize / 2; ferry_off >= 16; ferry_off /= 2) "},
                    replace_token(v, i, "2 * ferry_off"),
                    replace_token(v, step, "ferry_off")}},
              {i, step});
        continue;
      }
      // shuffle width 32 and source lane 31
      bool handled = false;
      for (std::size_t q = i; q > sa; --q) {
        if (!v.is(q - 1, "(") || !v.ident(q - 2) || !v.t(q - 2).starts_with("__shfl")) continue;
        const auto args = v.f.call_args(q - 1);
        const bool sync = v.t(q - 2).ends_with("_sync");
        const std::size_t width_at = sync ? 3 : 2, lane_at = sync ? 2 : 1;
        for (std::size_t a = 0; a < args.size(); ++a) {
          if (args[a].first != i || args[a].last != i) continue;
          if (a == width_at && *val == 32) {
            add(Site{Diag::ShuffleLoop32, false, fn.file, v.at(i), {replace_token(v, i, "warpSize")}}, {i});
            handled = true;
          } else if (a == lane_at && *val == 31 && one_of(v.t(q - 2), {"__shfl", "__shfl_sync"})) {
            add(Site{Diag::LaneId32, false, fn.file, v.at(i), {replace_token(v, i, "(warpSize - 1)")}}, {i});
            handled = true;
          } else if (a == lane_at && *val == 16 &&
                     one_of(v.t(q - 2), {"__shfl_xor", "__shfl_xor_sync", "__shfl_down", "__shfl_down_sync"}) &&
                     args.size() == lane_at + 1) {
            // the first step of an unrolled butterfly: `v += __shfl_xor_sync(m, v, 16);`
            const bool stmt = v.is(sb + 1, ";") && sa < q - 2;
            if (stmt) {
              add(Site{Diag::ShuffleLoop32,
                       true,
                       fn.file,
                       v.at(i),
                       {{v.at(sa), v.at(sa), "for (int ferry_off = warpSize / 2; ferry_off >= 16; ferry_off /= 2) "},
                        replace_token(v, i, "ferry_off")}},
                  {i});
              handled = true;
            }
          }
        }
        break;
      }
      if (handled) continue;
      // stride of a lane loop: for (int i = lane; ...; i += 32)
      if (*val == 32 && (v.is(i - 1, "+=") || v.is(i - 1, "-=")) && v.ident(i - 2)) {
        const std::string_view var = v.t(i - 2);
        unsigned vt = 0;
        for (const VarDef& d : fi.defs)
          if (d.at < i && d.name == var) vt = d.taint;
        if (vt & 2) {
          add(Site{Diag::LaneId32, false, fn.file, v.at(i), {replace_token(v, i, "warpSize")}}, {i});
          continue;
        }
      }
      // warp * 32 (the warp's first thread)
      if (*val == 32 && ((v.is(i - 1, "*") && v.ident(i - 2) && warp_vars.count(v.t(i - 2)) && !v.member(i - 2)) ||
                         (v.is(i + 1, "*") && v.ident(i + 2) && warp_vars.count(v.t(i + 2)) &&
                          !one_of(v.t(i + 3), {"(", "[", ".", "->"})))) {
        add(Site{Diag::WarpIndex32, false, fn.file, v.at(i), {replace_token(v, i, "warpSize")}}, {i});
        continue;
      }
      // the first warp: threadIdx.x < 32
      if ((*val == 32 && (v.is(i - 1, "<") || v.is(i - 1, ">="))) ||
          (*val == 31 && (v.is(i - 1, ">") || v.is(i - 1, "<=")))) {
        const std::size_t lf = detail::left_operand_first(v.f, i - 1, sa);
        if (lf < i - 1 && (taint_of(v, fi, lf, i - 2) & 3) == 1) {
          add(Site{Diag::WarpIndex32,
                   false,
                   fn.file,
                   v.at(i),
                   {replace_token(v, i, *val == 32 ? "warpSize" : "(warpSize - 1)")}},
              {i});
          continue;
        }
      }
    }
    blockers.push_back({fn.file, v.line(i),
                        "the number " + std::string(v.t(i)) + " in '" +
                            std::string(v.f.span_text(sa, sb)).substr(0, 80) +
                            "' works with lane ids or thread ids in a way the fixer does not rewrite"});
  }
  if (v.f.excluded(fi.body_open) || v.f.excluded(fi.body_close)) {
    for (const Site& s : sites)
      if (s.file == fn.file) {
        blockers.push_back({fn.file, v.line(fi.name_ci), "part of '" + fi.name + "' is excluded from rewriting"});
        break;
      }
  }
  scan_masks(fid, warp_ctx, sites, blockers);
}

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
    if (one_of(s, {"__ballot_sync", "__ballot", "__ballot64", "__activemask"}) && v.is(q + 1, "(")) return true;
    if (mask_helpers_.count(std::string(s)) && v.is(q + 1, "(")) return true;
    return false;
  };
  // `1 << lane`: a lane bit only when the shift count is a lane or thread id.
  auto lane_bit_at = [&](std::size_t q) {
    if (!(v.is(q, "<<") && v.number(q - 1) && int_value(v.t(q - 1)) == 1)) return false;
    const std::size_t rl = detail::primary_last(v.f, q + 1);
    return rl != npos && (taint_of(v, fi, q + 1, rl) & 3) != 0;
  };
  // Mask variables of the function, to a fixpoint over its definitions.
  std::set<std::string_view> masks;
  for (bool changed = true; changed;) {
    changed = false;
    for (const VarDef& d : fi.defs) {
      if (masks.count(d.name)) continue;
      bool m = false;
      for (std::size_t q = d.at + 1; q < hi && !v.is(q, ";"); ++q) {
        // a count of a mask (__popc(m & lt)) is a number, not a mask; neither is what a shuffle
        // or vote returns, whatever its mask argument
        const std::string_view tq = v.t(q);
        const bool counts = one_of(tq, {"__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll"});
        const bool other_warp_op =
            is_warp_op(tq) && !one_of(tq, {"__ballot_sync", "__ballot", "__ballot64", "__activemask"});
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
      Site s{Diag::BallotPopc32, true, fn.file, v.at(q), {replace_token(v, q, std::string(v.t(q)) + "ll")}};
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
      while (
          w > lo && v.ident(w - 1) &&
          (is_int_type_word(v.t(w - 1)) || one_of(v.t(w - 1), {"const", "volatile", "auto", "register", "static"}))) {
        --w;
        if (!one_of(v.t(w), {"const", "volatile", "register", "static"})) words.insert(words.begin(), v.t(w));
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
      Site s{Diag::BallotResult32, true, fn.file, v.at(decl), {{v.at(a), v.end(b), "unsigned long long"}}};
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
      Site site{Diag::BallotPopc32, true, fn.file, v.at(q), {replace_token(v, q, std::string(s) + "ll")}};
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
      if (v.number(r) && int_value(v.t(r)) == 0xffffffffLL) {
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
    while (w > 0 && v.ident(w - 1) &&
           (is_int_type_word(v.t(w - 1)) || one_of(v.t(w - 1), {"const", "inline", "static", "__device__", "__host__",
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
    const auto [l, h] = fn_by_name_.equal_range(fi.name);
    int defs = 0;
    for (auto it = l; it != h; ++it) ++defs;
    Site s{Diag::BallotResult32, false, fn.file, v.at(fi.name_ci), {{v.at(a), v.end(b), "unsigned long long"}}};
    s.widened_var = v.at(fi.name_ci);
    sites.push_back(std::move(s));
    if (defs > 1) blockers.push_back({fn.file, v.line(fi.name_ci), "'" + fi.name + "' is defined more than once"});
  }
}

void Planner::call_site_values(std::size_t fid, std::size_t param, bool template_arg, int depth, Values& out) const {
  const std::string& name = info(fns_[fid]).name;
  bool any = false;
  for (std::size_t caller = 0; caller < fns_.size(); ++caller) {
    const Fn& c = fns_[caller];
    if (std::find(c.callees.begin(), c.callees.end(), fid) == c.callees.end() &&
        std::find(c.launched.begin(), c.launched.end(), fid) == c.launched.end())
      continue;
    const FunctionInfo& ci = info(c);
    const Tokens v = tok(c.file);
    for (std::size_t q = ci.body_open + 1; q < ci.body_close; ++q) {
      if (!v.is(q, name) || v.member(q)) continue;
      std::size_t open = q + 1;
      std::vector<std::pair<std::size_t, std::size_t>> targs;
      if (v.is(open, "<")) {
        int d = 0;
        std::size_t close = npos;
        for (std::size_t j = open; j < ci.body_close; ++j) {
          if (v.is(j, "<")) ++d;
          else if (v.is(j, ">") && --d == 0) {
            close = j;
            break;
          }
          if (v.is(j, ";")) break;
        }
        if (close == npos) continue;
        if (close > open + 1) targs = split_commas(v, open + 1, close - 1);
        open = close + 1;
      }
      if (template_arg) {
        if (param >= targs.size()) {
          out.unknown = true;
          continue;
        }
        any = true;
        const Values r = values(caller, targs[param].first, targs[param].second, depth + 1);
        out.known.insert(r.known.begin(), r.known.end());
        out.unknown |= r.unknown;
        out.multiple |= r.multiple;
        continue;
      }
      if (!v.is(open, "(") || v.partner(open) == npos) continue;
      const auto args = split_commas(v, open + 1, v.partner(open) - 1);
      if (param >= args.size()) {
        out.unknown = true;
        continue;
      }
      any = true;
      const Values r = values(caller, args[param].first, args[param].second, depth + 1);
      out.known.insert(r.known.begin(), r.known.end());
      out.unknown |= r.unknown;
      out.multiple |= r.multiple;
    }
  }
  if (!any) out.unknown = true;
}

Planner::Values Planner::values(std::size_t fid, std::size_t a, std::size_t b, int depth) const {
  Values out;
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  auto merge = [&out](const Values& r) {
    out.known.insert(r.known.begin(), r.known.end());
    out.unknown |= r.unknown;
    out.multiple |= r.multiple;
  };
  while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
  if (a > b || b >= v.size() || depth > 4) {
    out.unknown = true;
    return out;
  }
  if (const auto n = eval_constant(v.f, v.facts, a, b, &fi)) {
    out.known.insert(*n);
    return out;
  }
  // dim3(x, y, z), dim3{x, y}, {x, y}: the x extent is what wavefronts are cut from
  if ((v.is(a, "dim3") && (v.is(a + 1, "(") || v.is(a + 1, "{")) && v.partner(a + 1) == b) ||
      (v.is(a, "{") && v.partner(a) == b)) {
    const std::size_t open = v.is(a, "{") ? a : a + 1;
    const auto parts = split_commas(v, open + 1, b - 1);
    if (parts.empty()) {
      out.unknown = true;
      return out;
    }
    return values(fid, parts[0].first, parts[0].second, depth + 1);
  }
  // c ? x : y
  {
    int d = 0;
    std::size_t q = npos, colon = npos;
    for (std::size_t i = a; i <= b; ++i) {
      if ((v.is(i, "(") || v.is(i, "[")) && v.partner(i) != npos) {
        i = v.partner(i);
        continue;
      }
      if (v.is(i, "?") && q == npos) q = i, d = 0;
      else if (v.is(i, "?")) ++d;
      else if (v.is(i, ":") && q != npos && d-- == 0) {
        colon = i;
        break;
      }
    }
    if (q != npos && colon != npos) {
      merge(values(fid, q + 1, colon - 1, depth + 1));
      merge(values(fid, colon + 1, b, depth + 1));
      return out;
    }
  }
  // min(x, y) / std::min<T>(x, y): one of the two
  {
    std::size_t n = a;
    if (v.is(n, "std") && v.is(n + 1, "::")) n += 2;
    if ((v.is(n, "min") || v.is(n, "max"))) {
      std::size_t open = n + 1;
      if (v.is(open, "<")) {
        while (open <= b && !v.is(open, ">")) ++open;
        ++open;
      }
      if (v.is(open, "(") && v.partner(open) == b) {
        for (const auto& [x, y] : split_commas(v, open + 1, b - 1)) merge(values(fid, x, y, depth + 1));
        return out;
      }
    }
  }
  // x * WARP_SIZE: a whole number of (new) warps
  for (std::size_t i = a; i <= b; ++i) {
    if ((v.is(i, "(") || v.is(i, "[")) && v.partner(i) != npos) {
      i = v.partner(i);
      continue;
    }
    if (!v.is(i, "*")) continue;
    if ((i + 1 == b && v.ident(b) && !resolve_constant(fn.file, v.t(b)).empty()) ||
        (i - 1 == a && v.ident(a) && !resolve_constant(fn.file, v.t(a)).empty())) {
      out.multiple = true;
      return out;
    }
  }
  if (a == b && v.ident(a)) {
    const std::string_view x = v.t(a);
    if (!resolve_constant(fn.file, x).empty()) {
      out.multiple = true;
      return out;
    }
    bool found = false;
    for (const VarDef& d : fi.defs) {
      if (d.name != x || d.at >= a) continue;
      found = true;
      merge(values(fid, d.at + 1, expr_end(v, d.at + 1, fi.body_close), depth + 1));
    }
    for (std::size_t q = fi.body_open + 1; q < a; ++q) {
      // dim3 x(...) / dim3 x{...}
      if (v.is(q, "dim3") && v.is(q + 1, x) && (v.is(q + 2, "(") || v.is(q + 2, "{")) && v.partner(q + 2) != npos) {
        found = true;
        const auto parts = split_commas(v, q + 3, v.partner(q + 2) - 1);
        if (parts.empty()) out.unknown = true;
        else merge(values(fid, parts[0].first, parts[0].second, depth + 1));
      }
      // for (int x : {64, 128})
      if (v.is(q, x) && v.is(q + 1, ":") && v.is(q + 2, "{") && v.partner(q + 2) != npos) {
        found = true;
        for (const auto& [p, r] : split_commas(v, q + 3, v.partner(q + 2) - 1)) merge(values(fid, p, r, depth + 1));
      }
    }
    if (found) return out;
    // a parameter: the arguments of every call
    const std::size_t popen = fi.name_ci + 1;
    if (v.is(popen, "(") && v.partner(popen) != npos) {
      const auto params = split_commas(v, popen + 1, v.partner(popen) - 1);
      for (std::size_t k = 0; k < params.size(); ++k) {
        std::size_t last = params[k].second;
        for (std::size_t q = params[k].first; q <= params[k].second; ++q)
          if (v.is(q, "=")) last = q - 1;
        if (v.is(last, x)) {
          call_site_values(fid, k, false, depth, out);
          return out;
        }
      }
    }
    // a template parameter: the template arguments of every call
    for (std::size_t q = fi.name_ci; q > 1; --q) {
      if (v.is(q - 1, ";") || v.is(q - 1, "}") || v.f.code(q - 1).in_directive) break;
      if (!(v.is(q - 1, "<") && v.is(q - 2, "template"))) continue;
      std::size_t close = q;
      int d = 1;
      for (; close < fi.name_ci; ++close) {
        if (v.is(close, "<")) ++d;
        else if (v.is(close, ">") && --d == 0) break;
      }
      const auto tparams = split_commas(v, q, close - 1);
      for (std::size_t k = 0; k < tparams.size(); ++k)
        if (v.is(tparams[k].second, x)) {
          call_site_values(fid, k, true, depth, out);
          return out;
        }
      break;
    }
  }
  out.unknown = true;
  return out;
}

void Planner::scan_host_launcher(std::size_t fid, const std::set<std::size_t>& kernels,
                                 std::vector<Blocker>& blockers) {
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
    // Block sizes written as numbers must be whole wavefronts.
    if (v.f.code(i).kind == lex::Kind::LaunchOpen) {
      const std::size_t k = launched_name(v, i, fi.body_open);
      if (k == npos) continue;
      bool ours = false;
      for (std::size_t c : resolve_function(fn.file, v.t(k))) ours |= kernels.count(c) > 0;
      if (!ours) continue;
      const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
      if (args.size() < 2) {  // unbalanced or unclosed: the block size cannot be read
        blockers.push_back({fn.file, v.line(i), "a launch of the component whose block size Ferry cannot read"});
        continue;
      }
      const Values vals = values(fid, args[1].first, args[1].last, 0);
      for (const long long n : vals.known)
        if (n % profile_.wave_size != 0) {
          blockers.push_back({fn.file, v.line(args[1].first),
                              "a kernel of the component is launched with blocks of " + std::to_string(n) +
                                  " threads (x), not whole " + std::to_string(profile_.wave_size) +
                                  "-lane wavefronts"});
          break;
        }
      continue;
    }
    // 32-based arithmetic next to the launch: warps per block, grid sizes from warp counts.
    if (!v.number(i)) continue;
    const auto val = int_value(v.t(i));
    const bool arith = v.is(i - 1, "/") || v.is(i - 1, "*") || v.is(i - 1, "%") || v.is(i + 1, "*") ||
                       (v.is(i - 1, "+") && val == 31) || ((v.is(i - 1, ">>") || v.is(i - 1, "<<")) && val == 5);
    if (!arith || !(val == 32 || val == 31 || val == 16 || val == 5)) continue;
    // A product with a literal of 1024 or more (`32 * 1024 * 1024` elements) is a data size: no
    // block has more than 1024 threads, so it is neither a block size nor a count of warps.
    const auto big = [&](std::size_t q) { return v.number(q) && int_value(v.t(q)).value_or(0) >= 1024; };
    if ((v.is(i + 1, "*") && big(i + 2)) || (v.is(i - 1, "*") && big(i - 2))) continue;
    blockers.push_back({fn.file, v.line(i),
                        "host code that launches the component computes with " + std::string(v.t(i)) +
                            " (warps per block?), which the fixer does not rewrite"});
    if (v.is(i - 1, "/") && val == 32) host_counts_.push_back({fn.file, v.at(i - 1)});  // the check's FRY2202 anchor
  }
}

// Launches written inside #define bodies (torch bindings, dispatch switches) are not in any
// function, so their block sizes cannot be evaluated: a kernel of the component that such a
// launch may start (its name, or a name pasted with ##, in a file of its translation unit)
// blocks the component unless the block argument is a literal of whole wavefronts.
void Planner::scan_macro_launches(const std::set<std::size_t>& kernels, std::vector<Blocker>& blockers) const {
  for (std::size_t k : kernels) {
    const Fn& kfn = fns_[k];
    if (!info(kfn).is_kernel) continue;
    const std::string& name = info(kfn).name;
    for (std::size_t f = 0; f < in_.size(); ++f) {
      if (tu_rank(f, kfn.file) > 2 && tu_rank(kfn.file, f) > 2) continue;
      const Tokens v = tok(f);
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v.f.code(i).kind != lex::Kind::LaunchOpen || !v.f.code(i).in_directive) continue;
        // the launched name: NAME, NAME<...>, or pieces pasted with ## (a piece of the name)
        bool may_be = false;
        for (std::size_t q = i; q > 0 && v.f.code(q - 1).in_directive && i - q < 40; --q) {
          const std::size_t p = q - 1;
          if (v.is(p, ";") || v.is(p, "{") || v.is(p, "}") || v.is(p, ":")) break;
          if (v.ident(p) && (v.t(p) == name || (v.t(p).size() >= 3 && name.find(v.t(p)) != std::string::npos &&
                                                (v.is(p - 1, "##") || v.is(p + 1, "##")))))
            may_be = true;
        }
        if (!may_be) continue;
        // the block argument: the second launch parameter
        const std::vector<migrate::ArgRange> args = detail::launch_args(v.f, i);
        bool whole = false;
        if (args.size() >= 2) {
          const auto n = eval_constant(v.f, v.facts, args[1].first, args[1].last, nullptr);
          whole = n && *n % profile_.wave_size == 0;
        }
        if (!whole)
          blockers.push_back({f, v.line(i),
                              "a kernel of the component ('" + name +
                                  "') may be launched inside a macro, with a block size the fixer "
                                  "cannot evaluate"});
      }
    }
  }
}

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
  for (std::size_t fid = 0; fid < fns_.size(); ++fid) {
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
  // The cross-lane operations of the warp code.
  for (std::size_t id : ids) {
    if (!lane_ctx[id]) continue;
    const Fn& fn = fns_[id];
    const FunctionInfo& fi = info(fn);
    const Tokens v = tok(fn.file);
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
      if (!v.ident(i) || v.member(i)) continue;
      const std::string_view s = v.t(i);
      if (one_of(s, {"asm", "__asm__", "__asm", "warpSize", "__lane_id"})) return false;
      if (!is_warp_op(s)) continue;
      if (!s.starts_with("__shfl")) {
        if (one_of(s, {"__syncwarp", "__builtin_amdgcn_wave_barrier"})) continue;
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
      Site site{Diag::ShuffleLoop32, false, fn.file, v.at(i), {}};
      if (args.size() == width_at + 1) {
        const migrate::ArgRange& w = args[width_at];
        const auto n = eval_constant(v.f, v.facts, w.first, w.last, &fi);
        if (!n || *n <= 0 || *n > 32 || (*n & (*n - 1)) != 0) return false;
      } else {
        site.edits.push_back({v.at(close), v.at(close), std::string(kAddedWidth)});
      }
      if (s == "__shfl" || s == "__shfl_sync") {
        const migrate::ArgRange& src = args[src_at];
        const auto n = eval_constant(v.f, v.facts, src.first, src.last, &fi);
        // already taken modulo 32 (`(x) & 31`, `x % 32`, the form this fix writes): as it is
        std::size_t a = src.first, b = src.last;
        while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
        const bool modulo =
            b > a && v.number(b) &&
            ((v.is(b - 1, "&") && int_value(v.t(b)) == 31) || (v.is(b - 1, "%") && int_value(v.t(b)) == 32));
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

std::set<std::size_t> Planner::reach_of(const std::vector<std::size_t>& ids) const {
  std::set<std::size_t> reach(ids.begin(), ids.end());
  for (std::vector<std::size_t> todo(ids.begin(), ids.end()); !todo.empty();) {
    const std::size_t id = todo.back();
    todo.pop_back();
    for (std::size_t c : fns_[id].callees)
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
      if (v.ident(i) && (one_of(v.t(i), {"asm", "__asm__", "__asm"}) || asm_macros_.count(std::string(v.t(i)))))
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
  for (std::size_t id : ids) {
    if (!lane_ctx[id]) continue;
    const Fn& fn = fns_[id];
    const FunctionInfo& fi = info(fn);
    const Tokens v = tok(fn.file);
    const std::string at = " (" + in_[fn.file].key + ", '" + fi.name + "')";
    std::set<std::size_t> own;  // tokens of the logical form this fixer wrote before: as they are
    for (std::size_t i = fi.body_open + 1; i < fi.body_close; ++i) {
      if (!v.ident(i) || own.count(i)) continue;
      const std::string_view s = v.t(i);
      if (v.member(i)) {
        if (one_of(s, {"ballot", "any", "all", "match_any", "match_all"}) && v.is(i + 1, "("))
          return "the tile vote '." + std::string(s) + "()' sees the wavefront" + at;
        continue;
      }
      if (one_of(s, {"asm", "__asm__", "__asm"})) return "inline assembly sees the physical wavefront" + at;
      // What the warp-intrinsics pass writes for __syncwarp(): a wave barrier (and its fences)
      // syncs both halves, which is more than a logical warp needs and never wrong.
      if (one_of(s, {"__builtin_amdgcn_wave_barrier", "__builtin_amdgcn_fence"})) continue;
      if (one_of(s, {"__ballot", "__ballot_sync", "__activemask"})) {
        // A ballot already taken to its half (a second migration of this fixer's output)
        if (const std::size_t e = ballot_half_end(v, i, half); e != npos) {
          for (std::size_t q = v.partner(i + 1) + 2; q < e; ++q) own.insert(q);
          Site site{Diag::BallotResult32, false, fn.file, v.at(i), {}};
          if (v.is(i - 6, "=") && v.ident(i - 7)) site.widened_var = v.at(i - 7);  // its FRY2102 is moot
          edits.push_back(std::move(site));
          continue;
        }
      }
      if (one_of(s, {"__lane_id", "coalesced_threads", "__uni_sync"}) || s.starts_with("__builtin_amdgcn_") ||
          s.starts_with("__match_") || (s.starts_with("__reduce_") && s.ends_with("_sync")))
        return "'" + std::string(s) + "' sees the wavefront in a way the fixer cannot confine to a half" + at;
      if (asm_macros_.count(std::string(s)))
        return "inline assembly sees the physical wavefront (in the macro '" + std::string(s) + "')" + at;
      if (warp_macros_.count(std::string(s))) return "a warp operation inside the macro '" + std::string(s) + "'" + at;
      const bool edit_here = s == "warpSize" || is_warp_op(s);
      if (edit_here && v.f.excluded(i)) return "a line to change is excluded from rewriting" + at;
      if (s == "warpSize") {
        // CUDA's 32, recorded so that the way back writes the warpSize the code had
        edits.push_back(
            {Diag::WarpWidthConstant, false, fn.file, v.at(i), {replace_token(v, i, std::string(kWarpSize32))}});
        continue;
      }
      if (one_of(s, {"__popc", "__ffs", "__clz", "__brev"}) && v.is(i + 1, "(")) {
        // of a mask that is now the half's 32 bits: its FRY2103 is moot
        Site bit{Diag::BallotPopc32, false, fn.file, v.at(i), {}};
        bit.widened_call = v.at(i);
        edits.push_back(std::move(bit));
        continue;
      }
      if (!is_warp_op(s) || one_of(s, {"__syncwarp"})) continue;
      if (!v.is(i + 1, "(") || v.partner(i + 1) == npos) return "'" + std::string(s) + "' is not called" + at;
      const std::size_t close = v.partner(i + 1);
      if (v.f.excluded(close)) return "a line to change is excluded from rewriting" + at;
      const auto args = v.f.call_args(i + 1);
      for (const migrate::ArgRange& a : args)
        if (a.empty()) return "an empty argument of '" + std::string(s) + "'" + at;
      const bool sync = s.ends_with("_sync");
      if (sync && args.empty()) return "'" + std::string(s) + "' without a mask" + at;
      Site site{Diag::ShuffleLoop32, false, fn.file, v.at(i), {}};
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
          const auto n = eval_constant(v.f, v.facts, src.first, src.last, &fi);
          const auto wn = width == "32" ? std::optional<long long>(32) : std::nullopt;
          std::size_t a = src.first, b = src.last;
          while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
          const bool modulo =
              wn && b > a && v.number(b) &&
              ((v.is(b - 1, "&") && int_value(v.t(b)) == *wn - 1) || (v.is(b - 1, "%") && int_value(v.t(b)) == *wn));
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
        const auto n = eval_constant(v.f, v.facts, m.first, m.last, &fi);
        return n && (*n == 0xffffffffLL || *n == -1);
      };
      if (one_of(s, {"__ballot_sync", "__ballot", "__activemask"})) {
        // the half's 32 bits (the call itself stays for the warp-intrinsics pass)
        site.code = Diag::BallotResult32;
        if (v.is(i - 1, "=") && v.ident(i - 2)) site.widened_var = v.at(i - 2);  // its FRY2102 is moot
        site.edits.push_back({v.at(i), v.at(i), "((unsigned)("});
        site.edits.push_back({v.end(close), v.end(close), " >> " + half + "))"});
        edits.push_back(std::move(site));
        if (sync) i = args[0].last;  // the mask is the warp-intrinsics pass's; the rest may nest
        continue;
      }
      if (one_of(s, {"__any_sync", "__all_sync", "__any", "__all"})) {
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

// The extents of a launch's block argument (form (a) of WMMA components): x from values(), y and z
// only from constants, so that the doubled block can be checked against 1024 threads.
Planner::BlockExtents Planner::block_extents(std::size_t fid, std::size_t a, std::size_t b) const {
  BlockExtents out;
  const Fn& fn = fns_[fid];
  const FunctionInfo& fi = info(fn);
  const Tokens v = tok(fn.file);
  while (a < b && v.is(a, "(") && v.partner(a) == b) ++a, --b;
  const auto xs = [&](std::size_t p, std::size_t q) {
    const Values r = values(fid, p, q, 0);
    if (r.unknown || r.multiple || r.known.empty()) out.why = "its x extent is not known";
    else out.x.insert(r.known.begin(), r.known.end());
  };
  // y and z of dim3(x, y, z) parts: constants only
  const auto yz_of = [&](const std::vector<std::pair<std::size_t, std::size_t>>& parts) {
    long long yz = 1;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const auto n = eval_constant(v.f, v.facts, parts[k].first, parts[k].second, &fi);
      if (!n || *n <= 0) {
        out.why = "its y or z extent is not a constant";
        return 1LL;
      }
      yz *= *n;
    }
    return yz;
  };
  if (const auto n = eval_constant(v.f, v.facts, a, b, &fi)) {
    out.x.insert(*n);
    return out;
  }
  if (v.is(a, "dim3") && v.is(a + 1, "(") && v.partner(a + 1) == b) {
    out.form = 2;
    const auto parts = split_commas(v, a + 2, b - 1);
    if (parts.empty() || parts.size() > 3) {
      out.why = "a dim3 Ferry cannot read";
      return out;
    }
    xs(parts[0].first, parts[0].second);
    out.yz = yz_of(parts);
    return out;
  }
  if (a != b || !v.ident(a)) {
    // an integer expression: its values
    for (std::size_t q = a; q <= b; ++q)
      if (v.is(q, "dim3") || v.is(q, "{") || v.is(q, ".")) {
        out.why = "a block argument Ferry cannot read";
        return out;
      }
    xs(a, b);
    return out;
  }
  const std::string_view x = v.t(a);
  // a parameter of type dim3: its y and z are not followed
  const std::size_t popen = fi.name_ci + 1;
  if (v.is(popen, "(") && v.partner(popen) != npos)
    for (const auto& [p, q] : split_commas(v, popen + 1, v.partner(popen) - 1))
      if (v.is(q, x))
        for (std::size_t r = p; r < q; ++r)
          if (v.is(r, "dim3")) {
            out.why = "it is a dim3 parameter";
            return out;
          }
  std::size_t decl = npos;
  for (std::size_t q = fi.body_open + 1; q < a; ++q)
    if (v.is(q, "dim3") && v.is(q + 1, x)) {
      if (decl != npos) {
        out.why = "'" + std::string(x) + "' is declared twice";
        return out;
      }
      decl = q;
    }
  if (decl == npos) {  // an integer variable or constant
    xs(a, b);
    return out;
  }
  out.form = 1;
  // the block the declaration and the launch share: member assignments there replace the extents
  const auto enclosing = [&](std::size_t ci) {
    int depth = 0;
    for (std::size_t q = ci; q > fi.body_open; --q) {
      if (v.is(q - 1, "}")) ++depth;
      else if (v.is(q - 1, "{") && depth-- == 0) return q - 1;
    }
    return fi.body_open;
  };
  const std::size_t scope = enclosing(decl);
  std::map<std::string, std::pair<std::size_t, std::size_t>> assigned;  // member -> value range
  std::vector<std::pair<std::size_t, std::size_t>> parts;
  if (v.is(decl + 2, "(") || v.is(decl + 2, "{")) {
    if (v.partner(decl + 2) == npos) {
      out.why = "a dim3 Ferry cannot read";
      return out;
    }
    parts = split_commas(v, decl + 3, v.partner(decl + 2) - 1);
  } else if (!v.is(decl + 2, ";")) {
    out.why = "'" + std::string(x) + "' is initialised in a way Ferry does not follow";
    return out;
  }
  for (std::size_t q = decl + 2; q < fi.body_close; ++q) {
    if (!v.is(q, x) || v.member(q) || q == a) continue;
    if (v.is(q + 1, ".") && one_of(v.t(q + 2), {"x", "y", "z"})) {
      if (!v.is(q + 3, "=")) {
        if (v.t(q + 3).size() == 2 && v.t(q + 3)[1] == '=' && !v.is(q + 3, "==")) {
          out.why =
              "'" + std::string(x) + "." + std::string(v.t(q + 2)) + "' is changed in a way Ferry does not follow";
          return out;
        }
        continue;  // a read
      }
      if (q > a || enclosing(q) != scope) {
        out.why =
            "'" + std::string(x) + "." + std::string(v.t(q + 2)) + "' is assigned after the launch or in another block";
        return out;
      }
      assigned[std::string(v.t(q + 2))] = {q + 4, expr_end(v, q + 4, fi.body_close)};
      continue;
    }
    if (v.f.code(q - 1).kind == lex::Kind::LaunchOpen || v.is(q - 1, ",")) {
      // another launch's argument is fine; anything else (`b = ...`, `f(b)`) is not followed
      if (v.is(q + 1, ",") || v.is(q + 1, ">>>") || v.f.code(q + 1).kind == lex::Kind::LaunchClose) continue;
    }
    out.why = "'" + std::string(x) + "' is used in a way Ferry does not follow";
    return out;
  }
  const char* names[] = {"x", "y", "z"};
  long long yz = 1;
  for (int k = 0; k < 3; ++k) {
    std::pair<std::size_t, std::size_t> r{npos, npos};
    if (auto it = assigned.find(names[k]); it != assigned.end()) r = it->second;
    else if (static_cast<std::size_t>(k) < parts.size()) r = parts[k];
    if (r.first == npos) {
      if (k == 0) out.x.insert(1);
      continue;
    }
    if (k == 0) {
      xs(r.first, r.second);
      continue;
    }
    const auto n = eval_constant(v.f, v.facts, r.first, r.second, &fi);
    if (!n || *n <= 0) {
      out.why = "its y or z extent is not a constant";
      return out;
    }
    yz *= *n;
  }
  out.yz = yz;
  return out;
}

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
                       {{v.at(d), v.end(last), std::string(shift ? "6" : "64") + " /* ferry-cuda: " + text + " */"}}});
      return true;
    };
    // the token before a thread id must not bind it tighter than the operator after it
    const auto loose_before = [&](std::size_t p, bool additive_ok) {
      if (one_of(v.t(p), {"*", "/", "%", ".", "->", "::", "~", "!", "++", "--", ")", "]", "&"})) return false;
      if (v.ident(p) && !one_of(v.t(p), {"return", "case"})) return false;
      return additive_ok || !one_of(v.t(p), {"+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!="});
    };
    const auto loose_after = [&](std::size_t p) {
      return one_of(v.t(p),
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
        if (tiles.count(obj) && (is_tile_warp_member(s) || one_of(s, {"thread_rank", "size", "num_threads", "sync"})))
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
        if (one_of(s, {"thread_rank", "meta_group_rank", "meta_group_size", "num_threads", "size"}) && v.is(i + 1, "("))
          return "'." + std::string(s) + "()' counts the doubled block's threads" + at;
        continue;
      }
      if (one_of(s, {"asm", "__asm__", "__asm"}) || asm_macros_.count(std::string(s)))
        return "inline assembly sees the physical wavefront" + at;
      if (s.starts_with("atomic") || s.starts_with("__atomic") || s.starts_with("__hip_atomic"))
        return "'" + std::string(s) + "': a clone lane would apply it twice" + at;
      if (s == "printf") return "'printf': a clone lane would print twice" + at;
      if (s.starts_with("__syncthreads_") ||
          one_of(s, {"this_thread_block", "tiled_partition", "this_grid", "coalesced_threads", "thread_rank"}))
        return "'" + std::string(s) + "' counts the doubled block's threads" + at;
      if (is_warp_op(s) && !one_of(s, {"__syncwarp", "__builtin_amdgcn_wave_barrier"}))
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
      if (const auto mc = macro_calls_.find(std::string(s)); mc != macro_calls_.end())
        for (const std::string& callee : mc->second)
          if (!resolve_function(fn.file, callee).empty())
            return "the macro '" + std::string(s) + "' calls '" + callee + "', which the fixer does not follow" + at;
      if (clone_unsafe_macros_.count(std::string(s)) || warp_macros_.count(std::string(s)))
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
  for (std::size_t fid = 0; fid < fns_.size(); ++fid) {
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
      if (recorded(v, b)) {
        const auto& toks = v.f.tokens();
        std::size_t c = v.f.token_index(b) + 1;
        while (c < toks.size() && toks[c].kind == lex::Kind::Whitespace) ++c;
        const std::string_view comment = toks[c].text(v.f.source());
        const std::string_view rec = comment.substr(15, comment.size() - 18);
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
             wmma_doubled_block_forms(text)[static_cast<std::size_t>(e.form)] + " /* ferry-cuda: " + text + " */"}}});
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
        while (c > 0 && one_of(v.t(c), {"(", ")", "void", "const", "*", "<", ">"})) --c;
        if (one_of(v.t(c), {"cudaFuncSetAttribute", "hipFuncSetAttribute", "cudaFuncGetAttributes",
                            "hipFuncGetAttributes", "reinterpret_cast"}))
          continue;
        return "'" + kfi.name + "' is named outside its launches (" + where(f, v.line(i)) +
               "): it may be launched where its block cannot be doubled";
      }
    }
  }
  return {};
}

Wave64FixPlan Planner::run() {
  Wave64FixPlan plan;
  collect_includes();
  collect_functions();
  collect_constants();
  link();
  // Which functions a lane-math fix concerns: those with warp operations in reach, lane helpers
  // they call, the host functions that launch them, and every user of a warp-width constant.
  const std::size_t n = fns_.size();
  UnionFind uf(n + consts_.size());
  std::vector<bool> member(n, false);
  std::vector<bool> used_const(consts_.size(), false);
  for (std::size_t id = 0; id < n; ++id) {
    const Fn& fn = fns_[id];
    if (fn.warp) member[id] = true;
    for (std::size_t c : fn.constants) {
      member[id] = true;
      used_const[c] = true;
      uf.unite(id, n + c);
    }
  }
  // Lane helpers (functions returning a lane id) called from warp code work in its terms.
  std::vector<bool> lane_ctx(n, false);
  for (std::size_t id = 0; id < n; ++id) lane_ctx[id] = fns_[id].warp;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t id = 0; id < n; ++id) {
      if (!lane_ctx[id]) continue;
      for (std::size_t c : fns_[id].callees) {
        const Fn& callee = fns_[c];
        if (lane_ctx[c] || !in_[callee.file].facts->lane_helpers.count(info(callee).name)) continue;
        lane_ctx[c] = true;
        changed = true;
      }
    }
  }
  for (std::size_t id = 0; id < n; ++id) {
    if (!lane_ctx[id]) continue;
    member[id] = true;
    for (std::size_t c : fns_[id].callees)
      if (lane_ctx[c]) uf.unite(id, c);
  }
  for (std::size_t id = 0; id < n; ++id)
    for (std::size_t k : fns_[id].launched)
      if (member[k] && fns_[k].warp) {
        member[id] = true;
        uf.unite(id, k);
      }
  // Mask helpers: functions that return a ballot or a lane bit.
  for (std::size_t id = 0; id < n; ++id) {
    if (!member[id]) continue;
    const FunctionInfo& fi = info(fns_[id]);
    const Tokens v = tok(fns_[id].file);
    for (std::size_t q = fi.body_open + 1; q < fi.body_close; ++q) {
      if (!v.is(q, "return")) continue;
      for (std::size_t r = q + 1; r < fi.body_close && !v.is(r, ";"); ++r) {
        bool bit = false;
        if (v.is(r, "<<") && v.number(r - 1) && int_value(v.t(r - 1)) == 1) {
          const std::size_t rl = detail::primary_last(v.f, r + 1);
          bit = rl != npos && (taint_of(v, fi, r + 1, rl) & 3) != 0;
        }
        if (bit || one_of(v.t(r), {"__ballot_sync", "__ballot", "__activemask"})) mask_helpers_.insert(fi.name);
      }
    }
  }

  // Lane math in device code no warp operation reaches: harmless, reported as notes.
  for (std::size_t id = 0; id < n; ++id) {
    if (lane_ctx[id] || !fns_[id].device) continue;
    std::vector<Site> would;
    std::vector<Blocker> ignored;
    scan_function(id, true, would, ignored);
    for (const Site& s : would)
      if (s.anchored && s.code != Diag::WarpWidthConstant) {
        plan.files[in_[s.file].key].harmless.insert({s.code, s.anchor});
        ++plan.stats.harmless_sites;
      }
  }
  // A warp-width constant only code without warp operations uses is harmless too.
  std::vector<bool> warp_const(consts_.size(), false);
  for (std::size_t id = 0; id < n; ++id)
    if (lane_ctx[id])
      for (std::size_t c : fns_[id].constants) warp_const[c] = true;
  for (std::size_t c = 0; c < consts_.size(); ++c)
    if (!warp_const[c]) {
      const Tokens v = tok(consts_[c].file);
      plan.files[in_[consts_[c].file].key].harmless.insert({Diag::WarpWidthConstant, v.at(consts_[c].info->name_ci)});
      ++plan.stats.harmless_sites;
    }

  std::map<std::size_t, std::vector<std::size_t>> groups;  // root -> function ids
  for (std::size_t id = 0; id < n; ++id)
    if (member[id]) groups[uf.find(id)].push_back(id);
  for (auto& [root, ids] : groups) {
    std::vector<Site> sites;
    std::vector<Blocker> blockers;
    std::set<std::size_t> kernels;
    for (std::size_t id : ids)
      if (fns_[id].warp) kernels.insert(id);
    bool warp_code = false;
    host_counts_.clear();
    for (std::size_t id : ids) {
      warp_code |= lane_ctx[id];
      if (fns_[id].device || fns_[id].warp) scan_function(id, lane_ctx[id], sites, blockers);
      else scan_host_launcher(id, kernels, blockers);
    }
    if (!warp_code) continue;  // only a constant shared by code without warp operations: harmless
    // WMMA: a fragment belongs to the whole wavefront, so a warp index that picks the warp's
    // tiles must count wavefronts, and then a block of N threads computes the tiles of N / 64
    // warps, not N / 32 (docs/wave64.md, "WMMA"). Neither the warpSize form (it halves the tiles
    // a block covers) nor the row or logical forms (two 32-lane halves cannot hold two
    // fragments) is sound; the component keeps its diagnostics.
    bool wmma = false;
    for (std::size_t id : ids)
      if (fns_[id].wmma_line != 0 && !wmma) {
        wmma = true;
        blockers.push_back({fns_[id].file, fns_[id].wmma_line,
                            "a WMMA fragment belongs to a whole wavefront (64 lanes on gfx9): the tiles a block "
                            "computes are counted in 32-lane warps, and Ferry does not re-tile them"});
      }
    scan_macro_launches(kernels, blockers);
    for (std::size_t c = 0; c < consts_.size(); ++c)
      if (used_const[c] && uf.find(n + c) == root) constant_site(c, sites, blockers);
    // Edits the file cannot take (excluded lines) block the component.
    for (const Site& s : sites) {
      const Tokens v = tok(s.file);
      for (const Wave64ByteEdit& e : s.edits) {
        for (std::size_t ci = 0; ci < v.size(); ++ci)
          if (v.at(ci) >= e.begin && v.at(ci) < std::max(e.end, e.begin + 1) && v.f.excluded(ci)) {
            blockers.push_back({s.file, v.line(ci), "a line to change is excluded from rewriting"});
            break;
          }
      }
    }
    std::set<std::pair<std::size_t, std::pair<Diag, std::uint32_t>>> anchors;
    for (const Site& s : sites)
      if (s.anchored) anchors.insert({s.file, {s.code, s.anchor}});
    // The component's warp-width constants are its hazards too, also when their definition
    // could not be rewritten (constant_site then left a blocker and no site).
    for (std::size_t c = 0; c < consts_.size(); ++c)
      if (used_const[c] && warp_const[c] && uf.find(n + c) == root)
        anchors.insert({consts_[c].file, {Diag::WarpWidthConstant, tok(consts_[c].file).at(consts_[c].info->name_ci)}});
    if (anchors.empty()) continue;  // nothing 32-lane here
    // Code this fixer already kept as logical 32-lane warps (a second migration of its output):
    // its 32s are right only with the halves, so the warpSize form must not take it.
    for (std::size_t id : ids) {
      if (!lane_ctx[id]) continue;
      const FunctionInfo& fi = info(fns_[id]);
      const Tokens v = tok(fns_[id].file);
      const std::string_view half = options_.cuda_output ? kCudaHalf : kHipHalf;
      for (std::size_t q = fi.body_open + 1; q < fi.body_close; ++q)
        if ((v.number(q) && v.is(q, "32") && recorded(v, q)) ||
            (v.ident(q) && one_of(v.t(q), {"__ballot", "__ballot_sync", "__activemask"}) &&
             ballot_half_end(v, q, half) != npos)) {
          blockers.push_back({fns_[id].file, v.line(q), "it is in the logical 32-lane form already"});
          break;
        }
    }
    ++plan.stats.components;
    plan.stats.sites += static_cast<int>(anchors.size());
    if (!blockers.empty()) {
      std::vector<Site> row_edits;
      if (!wmma && row_mode(ids, lane_ctx, kernels, row_edits)) {
        // Rows of 32: the anchors are right as they are once the shuffles stay in their row.
        ++plan.stats.fixed_components;
        plan.stats.fixed_sites += static_cast<int>(anchors.size());
        for (const auto& [file, key] : anchors) plan.files[in_[file].key].fixed.insert(key);
        for (const Site& s : row_edits)
          for (const Wave64ByteEdit& e : s.edits) plan.files[in_[s.file].key].edits.push_back(e);
        continue;
      }
      std::sort(blockers.begin(), blockers.end(),
                [](const Blocker& a, const Blocker& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); });
      // With WMMA the fragment is the reason; other blockers follow it.
      const Blocker& b = *std::find_if(blockers.begin(), blockers.end(), [&](const Blocker& x) {
        return !wmma || x.reason.starts_with("a WMMA fragment");
      });
      // WMMA: form (a), a wavefront per CUDA warp with the block doubled
      std::string not_doubled;
      if (wmma) {
        std::vector<Site> wmma_edits;
        not_doubled = wmma_mode(ids, kernels, wmma_edits);
        if (not_doubled.empty()) {
          ++plan.stats.fixed_components;
          plan.stats.fixed_sites += static_cast<int>(anchors.size());
          const std::string how =
              std::string(kWmmaDoubledHow) +
              " (docs/wave64.md, WMMA): every launch doubles the block in x, warp "
              "indices count 64 threads (`/ 64`), lanes stay `threadIdx.x % 32` so lanes 32-63 repeat lanes 0-31, "
              "and every 32 keeps its CUDA meaning; the host's grid arithmetic counts the original warps and stays";
          for (const auto& [file, key] : anchors) {
            plan.files[in_[file].key].fixed.insert(key);
            plan.files[in_[file].key].fixed_how.emplace(key, how);
          }
          for (const auto& [file, at] : host_counts_) {
            plan.files[in_[file].key].fixed.insert({Diag::WarpIndex32, at});
            plan.files[in_[file].key].fixed_how.emplace(std::make_pair(Diag::WarpIndex32, at), how);
          }
          for (const Site& s : wmma_edits)
            for (const Wave64ByteEdit& e : s.edits) plan.files[in_[s.file].key].edits.push_back(e);
          continue;
        }
      }
      std::vector<Site> logical_edits;
      const std::string not_logical =
          wmma ? "a WMMA fragment cannot be split into two 32-lane halves" : logical_mode(ids, lane_ctx, logical_edits);
      if (not_logical.empty()) {
        // 32-lane halves: the anchors are right as they are once cross-lane work stays in its half.
        ++plan.stats.fixed_components;
        ++plan.stats.logical_components;
        plan.stats.fixed_sites += static_cast<int>(anchors.size());
        plan.stats.logical_sites += static_cast<int>(anchors.size());
        const std::string how =
            "kept as 32-lane logical warps, one per half of the 64-lane wavefront (its shuffles have the width "
            "32, its ballots and votes take their half, warpSize is 32), because " +
            where(b.file, b.line) + ": " + b.reason +
            "; right for any block size; lanes 32-63 do no cross-lane work with lanes 0-31 (a performance "
            "matter, not correctness)";
        for (const auto& [file, key] : anchors) {
          plan.files[in_[file].key].fixed.insert(key);
          plan.files[in_[file].key].fixed_how.emplace(key, how);
        }
        for (const Site& s : logical_edits) {
          Wave64FilePlan& fp = plan.files[in_[s.file].key];
          if (s.widened_var != UINT32_MAX) fp.halved_vars.insert(s.widened_var);
          if (s.widened_call != UINT32_MAX) fp.halved_calls.insert(s.widened_call);
          for (const Wave64ByteEdit& e : s.edits) fp.edits.push_back(e);
        }
        continue;
      }
      const std::string why =
          where(b.file, b.line) + ": " + b.reason +
          (wmma ? "; as one warp per wavefront with a doubled block: " + not_doubled + " (docs/wave64.md, WMMA)"
                : "; as 32-lane halves: " + not_logical);
      plan.blocked.push_back(why);
      for (const auto& [file, key] : anchors) plan.files[in_[file].key].unfixed.emplace(key, why);
      // With WMMA the host's warps-per-block counts are the same hazard (the hint `/ warpSize` is
      // wrong there: host code, and the tiles would not be covered).
      if (wmma)
        for (const auto& [file, at] : host_counts_)
          plan.files[in_[file].key].unfixed.emplace(std::make_pair(Diag::WarpIndex32, at), why);
      continue;
    }
    ++plan.stats.fixed_components;
    plan.stats.fixed_sites += static_cast<int>(anchors.size());
    for (const Site& s : sites) {
      Wave64FilePlan& fp = plan.files[in_[s.file].key];
      if (s.anchored) fp.fixed.insert({s.code, s.anchor});
      if (s.widened_var != UINT32_MAX) fp.widened_vars.insert(s.widened_var);
      if (s.widened_call != UINT32_MAX) fp.widened_calls.insert(s.widened_call);
      for (const Wave64ByteEdit& e : s.edits) fp.edits.push_back(e);
    }
  }
  // Sort and drop duplicates (a token two sites rewrite the same way).
  for (auto& [key, fp] : plan.files) {
    std::sort(fp.edits.begin(), fp.edits.end(), [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
      return std::tie(a.begin, a.end, a.text) < std::tie(b.begin, b.end, b.text);
    });
    fp.edits.erase(std::unique(fp.edits.begin(), fp.edits.end(),
                               [](const Wave64ByteEdit& a, const Wave64ByteEdit& b) {
                                 return a.begin == b.begin && a.end == b.end && a.text == b.text;
                               }),
                   fp.edits.end());
    plan.stats.edits += static_cast<int>(fp.edits.size());
  }
  return plan;
}

Wave64FixPlan plan_wave64_fixes(const std::vector<Wave64FixInput>& files, const Profile& profile,
                                const WarpConstantUses& uses, const Wave64FixOptions& options) {
  Planner p(files, profile, uses, options);
  return p.run();
}

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

bool apply_wave64_fixes(FileMigration& file, const Wave64FilePlan& plan) {
  for (const Wave64ByteEdit& e : plan.edits)
    if (file.edits().overlaps(e.begin, e.end)) return false;
  for (std::size_t i = 0; i + 1 < plan.edits.size(); ++i)
    if (plan.edits[i].end > plan.edits[i + 1].begin) return false;
  for (const Wave64ByteEdit& e : plan.edits) file.replace_bytes(e.begin, e.end, e.text);
  return true;
}

}  // namespace ferry::analysis
