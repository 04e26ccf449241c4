// The wave64 planner's shared model (internal to src/analysis/wave64_fix/): the project read as
// files, functions and warp-width constants; the sites a fix rewrites; what blocks a component; and
// the Planner whose methods the units of this folder define. The public interface is
// analysis/wave64_fix.h; docs/wave64.md says what the planner does and why.
//
// The units, one concern each:
//   token_helpers.cpp  word tests and statement readers over a file's tokens
//   graph.cpp          the project: includes (translation units), functions, constants, call/launch links
//   sites.cpp          hazard sites of a component's functions and constants (the warpSize form's edits)
//   masks.cpp          lane masks kept in 32-bit integers (ballots, lane bits, mask helpers)
//   shuffle_loop.cpp   reduction loops and unrolled butterfly steps around shuffles
//   block_values.cpp   the values a block size or a launch's block argument can take
//   host_launches.cpp  host code that launches a component's kernels, and launches inside macros
//   form_rows.cpp      the rows-of-32 form
//   form_logical.cpp   the logical 32-lane form
//   form_wmma.cpp      form (a) of WMMA components (one CUDA warp per wavefront)
//   policy.cpp         components, the order the forms are tried in, the plan
//   site_fixes.cpp     the plan restricted to one site at a time (the workbench's apply-fix)
//   hints.h            the texts users read about a fix
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/facts.h"
#include "analysis/tokens.h"
#include "analysis/wave64_fix.h"
#include "analysis/wave64_fix/flat_lists.h"
#include "core/string_hash.h"
#include "rewrite/roundtrip_record.h"

namespace ferry::analysis::wave64_plan {

using detail::is_one_of;
using detail::is_warp_width_name;
using detail::parse_int;
using migrate::FileMigration;
using migrate::npos;

// ---- word tests (token_helpers.cpp) ---------------------------------------------------------

[[nodiscard]] bool narrow_literal(std::string_view t);

[[nodiscard]] bool is_warp_op(std::string_view s);

// WMMA calls (nvcuda::wmma, rocwmma): the whole warp -- a whole wavefront with rocWMMA -- runs
// each one on the fragment it shares.
[[nodiscard]] bool is_wmma_op(std::string_view s);

// Member calls of cooperative-groups tiles that move data between lanes.
[[nodiscard]] bool is_tile_warp_member(std::string_view s);

[[nodiscard]] bool is_int_type_word(std::string_view s);

// The integer type words of a declaration that are 32 bits wide: "unsigned", "unsigned int",
// "int", "uint32_t", "uint", "int32_t".
[[nodiscard]] bool is_32bit_type(const std::vector<std::string_view>& w);

[[nodiscard]] bool is_64bit_type(const std::vector<std::string_view>& w);

// One file as the planner reads it: its lex::CodeView (the FileMigration) under short names, all
// safe past the end as CodeView's are, plus the file's facts and two statement-level readers.
struct Tokens {
  const FileMigration& f;
  const FileFacts& facts;
  // Keeps `f` alive when the planner lexed it on demand (Wave64FixInput::load).
  std::shared_ptr<const FileMigration> hold = {};
  // Keeps `facts` alive when the planner read them on demand (Wave64FixInput::load_facts).
  std::shared_ptr<const FileFacts> facts_hold = {};
  [[nodiscard]] std::size_t size() const { return f.code_size(); }
  [[nodiscard, gnu::always_inline]] bool is(std::size_t ci, std::string_view s) const { return f.is(ci, s); }
  [[nodiscard]] std::string_view t(std::size_t ci) const { return f.text(ci); }
  [[nodiscard]] bool ident(std::size_t ci) const { return f.is_identifier(ci); }
  [[nodiscard]] bool number(std::size_t ci) const { return f.is_number(ci); }
  [[nodiscard]] std::size_t partner(std::size_t ci) const { return f.partner(ci); }
  [[nodiscard]] bool member(std::size_t ci) const { return f.is_member_name(ci); }
  [[nodiscard]] std::uint32_t at(std::size_t ci) const { return f.code(ci).begin; }
  [[nodiscard]] std::uint32_t end(std::size_t ci) const { return f.code(ci).end; }
  [[nodiscard]] std::uint32_t line(std::size_t ci) const { return f.code(ci).line; }
  // The first code token that begins at or after byte `offset` (code tokens are in source order).
  [[nodiscard]] std::size_t first_at(std::uint32_t offset) const {
    std::size_t lo = 0, hi = size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (at(mid) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  [[nodiscard]] bool ends_operand(std::size_t ci) const {
    if (ci >= size()) return false;
    const lex::Kind k = f.code(ci).kind;
    if (k == lex::Kind::Identifier)
      return !is_one_of(t(ci), {"return", "case", "sizeof", "else", "do", "const", "int", "unsigned", "auto", "long"});
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
  // Of FunctionInfo, what linking reads: the project graph is built without the files' facts.
  std::uint32_t name_ci = 0;
  std::uint32_t body_open = 0;
  std::uint32_t body_close = 0;
  bool lane_helper = false;  // FileFacts::lane_helpers names it
  bool device = false;
  bool direct_warp = false;
  std::uint32_t wmma_line = 0;  // line of its first WMMA call (a fragment is the wavefront's), 0: none
  bool warp = false;
  // Its links (what it calls, launches, the constants and macros it uses) are the Planner's
  // callees_, launched_, constants_ and macros_ under its id.
};

struct Constant {
  std::size_t file;
  std::string name;
  ConstantInfo info;  // a copy: the file's facts are not held (Planner::facts_of)
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

// ---- statement readers and site helpers (token_helpers.cpp) ---------------------------------

// Splits [a, b] at top-level commas.
[[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> split_commas(const Tokens& v, std::size_t a,
                                                                            std::size_t b);

// End of the expression that starts at `a` (before `;`, or `,`/`)` at depth 0).
[[nodiscard]] std::size_t expr_end(const Tokens& v, std::size_t a, std::size_t limit);

// The code indices of the kernel launches' `<<<` tokens (lex::Kind::LaunchOpen), ascending.
[[nodiscard]] std::vector<std::uint32_t> launch_opens(const Tokens& v);

// The code index of the kernel name before a `<<<` at `open` (back over template arguments).
[[nodiscard]] std::size_t launched_name(const Tokens& v, std::size_t open, std::size_t lo);

[[nodiscard]] bool declared_device(const Tokens& v, std::size_t name_ci);

// A constant the file neither defines nor reaches through its includes can still come from a
// header found through an -I folder or an angle include, never from another source file.
[[nodiscard]] bool is_header_key(const std::string& key);

[[nodiscard]] Wave64ByteEdit replace_token(const Tokens& v, std::size_t ci, std::string text);
// replace_token, recorded for the way back when `record` (HIP output; rewrite/roundtrip_record.h):
// a name replacing a literal as `warpSize /* ferry-cuda: 32 */` (literal form), other text as a
// span where parentheses can open, `(warpSize / 2) /* ferry-cuda: 16 */`, else unrecorded.
[[nodiscard]] Wave64ByteEdit recorded_token(const Tokens& v, std::size_t ci, std::string text, bool record);
// As recorded_token for an expression: `(TEXT) /* ferry-cuda: ORIGINAL */` (span form), or
// `(TEXT)` where it is not recorded.
[[nodiscard]] Wave64ByteEdit recorded_paren(const Tokens& v, std::size_t ci, std::string text, bool record);

// Whether the directive at `hash_ci` (its `#`) sits inside #if/#ifdef/#ifndef, the file's include
// guard aside (macro_uses.cpp).
[[nodiscard]] bool inside_conditional(const Tokens& v, std::size_t hash_ci);

// What the row and logical forms write where the CUDA had nothing or something else, recorded for
// the way back (the cuda target's record_restore and logical_warp passes, docs/wave64.md "Round
// trips"): a shuffle width they add, and CUDA's warpSize where a logical warp needs 32.
// The record is rewrite/roundtrip_record.h's ("added" and "warp size" forms).
inline const std::string kAddedWidth = ", 32 " + std::string(rewrite::record::kAdded);
inline const std::string kWarpSize32 = "32 " + rewrite::record::make("warpSize");
// The half of the wavefront a lane is in, as a shift: 0 or 32 on AMD, 0 on NVIDIA. HIP output
// can ask __lane_id(); CUDA output (analyze --fix, to be ported later) needs a form both have.
constexpr std::string_view kHipHalf = "(__lane_id() & 32)";
constexpr std::string_view kCudaHalf =
    "(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % warpSize & 32)";

// A code token followed (on its line, whitespace between) by a `/* ferry-cuda: ... */` record.
[[nodiscard]] bool recorded(const Tokens& v, std::size_t ci);

// The logical form's half of a ballot, as written at the `__ballot`/`__ballot_sync` token `i`:
// `(unsigned)(__ballot(P) >> HALF)` with HALF `(__lane_id() & 32)` (or, in CUDA output, the
// linear thread id form). Returns the index of the closing `)` of `(unsigned)(...)`, or npos.
[[nodiscard]] std::size_t ballot_half_end(const Tokens& v, std::size_t i, std::string_view half);

// Is the value of code range [first, last] lane-, warp- or thread-derived?
[[nodiscard]] unsigned taint_of(const Tokens& v, const FunctionInfo& fi, std::size_t first, std::size_t last);

// Variables of `fi` holding a warp index: defined with `>> 5`, `/ 32`, `/ warpSize` or the
// division by a warp-width constant.
[[nodiscard]] std::set<std::string_view> warp_index_vars(const Tokens& v, const FunctionInfo& fi);

// ---- shuffle loops (shuffle_loop.cpp) -------------------------------------------------------

// A width guard of an unrolled butterfly: `if (W >= 32) v += __shfl_down_sync(m, v, 16);` with `i`
// the guard's number 2k and W a value that is no lane or thread id (a template width, a
// constant). Returns the step's offset token k, or npos.
[[nodiscard]] std::size_t guarded_shuffle_step(const Tokens& v, const FunctionInfo& fi, std::size_t sa, std::size_t sb,
                                               std::size_t i);

struct LoopInfo {
  std::size_t hit = npos;  // the literal the check reports
  bool halving = false;
  bool safe = false;
  std::string why;                    // when not safe
  std::vector<Wave64ByteEdit> edits;  // when safe
};

// `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o);` and the ascending form.
[[nodiscard]] LoopInfo shuffle_loop(const Tokens& v, std::size_t ci, bool record = false);

// One copy of each name the planner keeps past a file's tokens (macro names, the names their
// bodies call): a tree repeats the same names in many files. Views of a pooled name stay valid
// while the pool lives (a set's nodes never move).
class NamePool {
 public:
  std::string_view operator()(std::string_view name) {
    auto it = names_.find(name);
    if (it == names_.end()) it = names_.emplace(name).first;
    return *it;
  }

 private:
  std::unordered_set<std::string, StringHash, std::equal_to<>> names_;  // nodes never move: the views stay valid
};

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
  // The tokens of `file`: the caller's, or lexed again on demand (Wave64FixInput::load) and kept
  // while the files kept hold at most kLoadedBytes of tokens and indexes (CodeView::memory_bytes,
  // counted again at each load: a name index built since counts too); the least recently read go.
  Tokens tok(std::size_t file) const;
  // tok()'s tokens with the given facts.
  Tokens tokens(std::size_t file, const FileFacts& facts, std::shared_ptr<const FileFacts> hold) const;
  // The facts of `file`: the caller's, or read on demand (Wave64FixInput::load_facts) and kept at
  // least until the next release_facts(). References into them (info(), Tokens::facts) are good
  // until then; a Tokens keeps its own. Planning releases them after each file of a sweep and each
  // component: release_facts() keeps the facts read most recently while they hold at most
  // kFactsBytes (heap_bytes), and always the last file's, so that a tree's planning holds the
  // facts of the files it is reading, not every file's, and a file read again soon (a large
  // file's many components, a header beside its source) is not unpacked again.
  const FileFacts& facts_of(std::size_t file) const { return *facts_ptr(file); }
  std::shared_ptr<const FileFacts> facts_ptr(std::size_t file) const;
  void release_facts() const;
  // The head of `file`'s facts (Wave64FixInput::load_head), or of the facts themselves.
  FactsHead head(std::size_t file) const;
  // As tok(), for a reader of tokens alone: the file's facts are not read for it (Tokens::facts is
  // empty unless they are kept already).
  Tokens tok_without_facts(std::size_t file) const;
  // Whether the original text of `file` holds `word`, without lexing it.
  bool mentions(std::size_t file, std::string_view word) const {
    const Wave64FixInput& in = in_[file];
    if (in.file) return in.file->source().find(word) != std::string_view::npos;
    if (file < loaded_.size() && loaded_[file]) return loaded_[file]->source().find(word) != std::string_view::npos;
    if (in.read) return in.read().find(word) != std::string::npos;
    return in.text.find(word) != std::string_view::npos;
  }
  // The functions that launch (or call) one of `kernels`, in id order: the only ones whose
  // launches of them the forms read (the links of link()).
  std::set<std::size_t> launchers_of(const std::set<std::size_t>& kernels) const {
    std::set<std::size_t> out;
    for (std::size_t k : kernels) out.insert(callers_[k].begin(), callers_[k].end());
    return out;
  }
  // The path of `file`'s FileMigration.
  std::string_view path_of(std::size_t file) const {
    return in_[file].file ? in_[file].file->path() : std::string_view(in_[file].key);
  }
  using Anchors = std::set<std::pair<std::size_t, std::pair<Diag, std::uint32_t>>>;  // (file, (code, offset))
  // With Wave64FixOptions::site_fixes_of: what one component adds to the plan, per hazard of that
  // file (site_fixes.cpp). Made once the component's sites and anchors are known; it records when
  // run() leaves the component, whichever form took it (or none).
  class SiteFixRecord {
   public:
    SiteFixRecord(const Planner& p, Wave64FixPlan& plan, const std::vector<Site>& sites, const Anchors& anchors);
    SiteFixRecord(const SiteFixRecord&) = delete;
    SiteFixRecord& operator=(const SiteFixRecord&) = delete;
    ~SiteFixRecord();

   private:
    const Planner& p_;
    Wave64FixPlan& plan_;
    const std::vector<Site>& sites_;
    const Anchors& anchors_;
    std::size_t file_ = npos;                    // the file named by site_fixes_of, if in the component
    std::map<std::string, std::size_t> before_;  // edits per file key before the component
  };

  const FunctionInfo& info(const Fn& fn) const { return facts_of(fn.file).functions[fn.index]; }
  std::string where(std::size_t file, std::uint32_t line) const { return in_[file].key + ":" + std::to_string(line); }

  // What the project graph needs of a file's tokens besides its facts, read in the one sweep
  // that also collects its functions (summarize_file): the files' tokens are read twice in
  // building the graph (here and in link), each file's once per sweep.
  // Names are views of the planner's pool (pool_): the files' facts are not held.
  struct FileSummary {
    std::vector<std::string_view> quoted_includes;  // `#include "NAME"`: NAME (pooled: copies repeat them)
    // Per constant of the file's facts (in their order) whose definition uses another constant
    // of the project: those names, the only ones collect_constants can resolve. A constant
    // without one (most: `#define GL_TEXTURE_2D 0x0DE1`) has no entry. Every constant's name is
    // known before the sweep (the facts' heads), so no other identifier is kept or pooled.
    std::vector<std::pair<std::string_view, std::vector<std::string_view>>> definition_names;
    // The file's warp-width constants (value 32, a warp-width name), in their order.
    std::vector<std::pair<std::string_view, ConstantInfo>> warp_constants;
  };
  // Reads file `f` once: its summary and functions. `constant_names`: every constant's name in the
  // project (pooled).
  void summarize_file(std::size_t f, const std::set<std::string_view>& constant_names, FileSummary& out);
  void collect_includes(const std::vector<FileSummary>& summaries);
  void collect_functions(std::size_t f, const Tokens& v);
  void collect_constants(const std::vector<FileSummary>& summaries);
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
  // A code range the row and logical forms scan: a function body, or the body of a macro named
  // like a warp intrinsic that the function calls (macro_uses.cpp).
  struct Range {
    std::size_t file, first, end;
    const FunctionInfo* scope;  // null in a macro body: its names are the macro's parameters
    bool conditional = false;   // a macro defined inside #if/#ifdef (an include guard aside)
  };
  // Whether a call of `s` goes through the project's function-like macro of that name
  // (intrinsic_macros_); if so, the bodies not in `seen` yet are added to `ranges`, once per form
  // run. The *_sync intrinsics are not: the warp-intrinsics pass renames their calls, so a HIP
  // call never reaches a macro of that name.
  // A macro defined inside #if may not be the one the call reaches: through_macro then returns
  // true and sets `why`, and the form is not taken.
  bool through_macro(std::string_view s, std::set<std::string>& seen, std::vector<Range>& ranges,
                     std::string& why) const;
  // The bodies of the functions of `ids` in a lane context: where the row and logical forms start.
  std::vector<Range> body_ranges(const std::vector<std::size_t>& ids, const std::vector<bool>& lane_ctx) const;
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
    void merge(const Values& r) {  // either of two values
      known.insert(r.known.begin(), r.known.end());
      unknown |= r.unknown;
      multiple |= r.multiple;
    }
  };
  Values values(std::size_t fid, std::size_t a, std::size_t b, int depth) const;
  Values values_uncached(std::size_t fid, std::size_t a, std::size_t b, int depth) const;
  void call_site_values(std::size_t fid, std::size_t param, bool template_arg, int depth, Values& out) const;
  void scan_masks(std::size_t fid, bool warp_ctx, std::vector<Site>& sites, std::vector<Blocker>& blockers);
  void constant_site(std::size_t cid, std::vector<Site>& sites, std::vector<Blocker>& blockers);

  const std::vector<Wave64FixInput>& in_;
  const Profile& profile_;
  const WarpConstantUses& uses_;
  const Wave64FixOptions options_;
  static constexpr std::size_t kLoadedBytes = 4u << 20;
  static constexpr std::size_t kFactsBytes = 256u << 10;
  mutable std::vector<std::shared_ptr<const FileFacts>> facts_;       // per file, read on demand, while kept
  mutable std::vector<std::size_t> facts_bytes_;                      // per file kept: heap_bytes of its facts
  mutable std::vector<std::size_t> facts_order_;                      // the files kept, least recently read first
  mutable std::size_t facts_kept_ = 0;                                // their bytes
  mutable std::vector<std::shared_ptr<const FileMigration>> loaded_;  // per file, while kept
  mutable std::vector<std::size_t> loaded_order_;                     // least recently read first
  std::vector<Fn> fns_;
  // (name, function id) sorted by name, ids ascending under a name (pooled names).
  std::vector<std::pair<std::string_view, std::uint32_t>> fn_by_name_;
  // The ids of the functions named `name`, ascending.
  [[nodiscard]] std::span<const std::pair<std::string_view, std::uint32_t>> functions_named(
      std::string_view name) const {
    const auto lo = std::lower_bound(fn_by_name_.begin(), fn_by_name_.end(), name,
                                     [](const auto& e, std::string_view n) { return e.first < n; });
    auto hi = lo;
    while (hi != fn_by_name_.end() && hi->first == name) ++hi;
    return {lo, hi};
  }
  // Per function (link()): function and constant ids, 32 bits each. A call that resolves to no
  // definition in its translation unit links to every file's definition of the name, so a tree of
  // many copies of the same programs has many of these; each id is kept once per list, where it
  // was first seen.
  FlatLists<std::uint32_t> callees_;
  FlatLists<std::uint32_t> launched_;   // kernels it launches
  FlatLists<std::uint32_t> constants_;  // warp-width constant ids it uses
  FlatLists<std::string_view> macros_;  // lane-math macros it uses (pooled), once per use
  // values() of (function, first, last, depth): read-only state, so each is computed once.
  mutable std::map<std::tuple<std::size_t, std::size_t, std::size_t, int>, Values> values_memo_;
  // Per function: the functions that call or launch it, in id order, each once.
  FlatLists<std::uint32_t> callers_;
  // Per file: the files of the project it includes, directly or not (its translation unit when
  // it is a source), and the files that include it; sorted ids (a header found through an -I
  // folder is every project file with that path ending, so a tree of copies has many).
  std::vector<std::vector<std::uint32_t>> includes_;
  std::vector<std::vector<std::uint32_t>> includers_;
  std::vector<Constant> consts_;
  std::multimap<std::string, std::size_t> const_by_name_;
  // Names (macros, constants) derived from a warp-width constant, per file: name -> constant ids.
  std::map<std::string, std::map<std::size_t, std::vector<std::size_t>>> derived_;  // name -> file -> roots
  NamePool pool_;  // the names below, the functions' (fn_by_name_), the constants' and includes' (FileSummary)
  std::set<std::string_view> lane_macros_;
  // Per file: the code indices of the kernel launches written inside #define bodies.
  std::vector<std::vector<std::size_t>> macro_launches_;
  std::set<std::string_view> warp_macros_;  // macros whose body has a warp operation or warpSize
  std::set<std::string_view> asm_macros_;   // macros whose body has inline assembly
  // Function-like macros the project defines under a warp intrinsic's name (`#define __shfl(v, d)
  // __shfl_sync(FULL, v, d)`): name -> each definition's body. A call through one is the macro's
  // business: the forms edit its body, never the call (a width added at the call would be one
  // argument more than the macro takes).
  std::map<std::string_view, std::vector<Range>> intrinsic_macros_;
  // Macros whose body reads thread ids or has atomics or printf: form (a) cannot see their uses.
  std::set<std::string_view> clone_unsafe_macros_;
  // Names a macro body calls (`NAME(`): functions the callee links of a component do not follow.
  std::map<std::string_view, std::set<std::string_view>> macro_calls_;
  std::set<std::string> mask_helpers_;                           // functions returning a lane mask
  std::set<std::pair<std::size_t, std::size_t>> covered_masks_;  // (file, code index) of rewritten masks
  // Host warp counts (`blockDim.x / 32`) of the component being scanned: (file, byte offset of '/').
  std::vector<std::pair<std::size_t, std::uint32_t>> host_counts_;
};

}  // namespace ferry::analysis::wave64_plan
