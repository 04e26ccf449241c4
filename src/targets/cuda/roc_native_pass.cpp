// The ROCm libraries' native APIs on the way to CUDA (docs/targets.md, "cuda"). Most of rocSPARSE
// maps name for name (the inverted rules/cuda2hip/alt-rocsparse/ table and
// rules/hip2cuda/rocsparse.tsv); this pass does what a rename cannot:
//  - `#if ROCSPARSE_VERSION_MAJOR < 3` and the like: nvcc sees no rocSPARSE header, so the macro
//    would read 0 and pick the code written for rocSPARSE 2. The rules map rocSPARSE 3's API, so
//    the test reads the version whose API they map, `3 /* ferry: ROCSPARSE_VERSION_MAJOR */`
//    (FRY1320); the rocSPARSE names of a branch that is then not compiled stay as written.
//  - `case rocsparse_status_thrown_exception:` and the other statuses the CUDA library never
//    returns (no row maps them): the label goes, with the `return` it guards (FRY1321).
//  - rocSPARSE's staged generic calls, `rocsparse_spmv(..., stage, &size, buffer)`: one function
//    per stage in cuSPARSE. A literal stage picks it: `_stage_buffer_size` ->
//    cusparseSpMV_bufferSize(..., &size), `_stage_preprocess` -> cusparseSpMV_preprocess(...,
//    buffer), `_stage_compute` -> cusparseSpMV(..., buffer) (FRY1248); any other stage, FRY1249.
//  - `rocsparse_mat_info`: one rocSPARSE type for every analysis, one cuSPARSE type per
//    algorithm. A local variable takes the type of the calls it is passed to (bsrsv2Info_t and
//    cusparseCreateBsrsv2Info for rocsparse_dbsrsv_*); one that only the dropped argument of
//    rocsparse_?bsrmv or ?csrmv reads is removed with its create and destroy statements (FRY1250); one that
//    serves several algorithms or is used elsewhere, FRY1251.
//  - rocSOLVER, rocFFT and rocRAND's C++ wrapper have no same-shape CUDA twin (cuSOLVER needs a
//    workspace query and its own handle, cuFFT plans differ, cuRAND has no C++ classes): FRY1322
//    at the include.
// Not on the way back of a round trip (the CUDA original never had these names).
#include <array>
#include <string>
#include <vector>

#include "rewrite/whole_lines.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::ArgRange;
using migrate::npos;

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> set) {
  for (std::string_view x : set)
    if (s == x) return true;
  return false;
}

// Byte range of code tokens first..last, widened to whole lines when nothing else is on them.
std::pair<std::uint32_t, std::uint32_t> line_span(const migrate::FileMigration& f, std::size_t first,
                                                  std::size_t last) {
  const std::uint32_t b = f.code(first).begin, e = f.code(last).end;
  return rewrite::whole_lines(f.source(), b, e).value_or(std::pair{b, e});
}

// ---- version tests ---------------------------------------------------------------------------

// `#if NAME OP N` with NAME's value: whether the test holds.
bool test_holds(const migrate::FileMigration& f, std::size_t name, std::string_view value) {
  const long v = std::stol(std::string(value));
  long n = 0;
  try {
    n = std::stol(std::string(f.text(name + 2)));
  } catch (...) {
    return true;
  }
  const std::string_view op = f.text(name + 1);
  if (op == "<") return v < n;
  if (op == "<=") return v <= n;
  if (op == ">") return v > n;
  if (op == ">=") return v >= n;
  if (op == "==") return v == n;
  if (op == "!=") return v != n;
  return true;  // not a comparison Ferry reads: treat the branch as taken
}

// The branch of the #if at `hash` is not compiled for the rocSPARSE version the rules map (the
// rocSPARSE 2 spellings rocm-examples #defines there): its rocSPARSE names are left as written,
// without a diagnostic for each.
void keep_dead_branch(migrate::FileMigration& f, std::size_t hash) {
  int depth = 0;
  for (std::size_t k = f.directive_last(hash) + 1; k < f.code_size(); ++k) {
    if (f.is(k, "#") && f.in_directive(k)) {
      const std::string_view d = f.text(k + 1);
      if (d == "if" || d == "ifdef" || d == "ifndef") ++depth;
      else if (d == "endif" && depth-- == 0) return;
      else if ((d == "else" || d == "elif") && depth == 0) return;
      if (d != "define") k = f.directive_last(k);  // a #define's body is the branch's code too
      continue;
    }
    if (f.is_identifier(k) && f.text(k).starts_with("rocsparse_") && !f.touched(k))
      f.replace(k, k, std::string(f.text(k)));
  }
}

void version_tests(migrate::FileMigration& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kValues = {
      {{"ROCSPARSE_VERSION_MAJOR", "3"}, {"ROCSPARSE_VERSION_MINOR", "0"}, {"ROCSPARSE_VERSION_PATCH", "0"}}};
  for (const auto& [name, value] : kValues) {
    for (const std::uint32_t k : file.occurrences(name)) {
      if (!file.in_directive(k) || file.excluded(k) || file.touched(k)) continue;
      std::size_t hash = k;
      while (hash > 0 && !file.is(hash, "#")) --hash;
      const std::string_view d = file.text(hash + 1);
      if (!(d == "if" || d == "elif")) continue;
      if (file.is(k - 1, "defined") || (file.is(k - 1, "(") && file.is(k - 2, "defined"))) continue;
      if (!file.replace(k, k, std::string(value) + " /* ferry: " + std::string(name) + " */")) continue;
      if (k == hash + 2 && file.directive_last(hash) == k + 2 && file.is_number(k + 2) && !test_holds(file, k, value))
        keep_dead_branch(file, hash);
      file.diag(Diag::RocVersionTestCuda, k,
                "'" + std::string(name) + "' reads " + std::string(value) +
                    ": the CUDA build has no rocSPARSE header, and Ferry maps rocSPARSE 3's API to cuSPARSE",
                "");
    }
  }
}

// ---- status cases ------------------------------------------------------------------------------

void status_cases(migrate::FileMigration& file) {
  static constexpr std::string_view kPrefixes[] = {"rocsparse_status_", "rocblas_status_"};
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.is(ci, "case")) continue;
    const std::size_t lab = ci + 1;
    if (!file.is_identifier(lab) || !file.is(lab + 1, ":") || file.excluded(ci) || file.touched(lab)) continue;
    const std::string_view name = file.text(lab);
    bool lib = false;
    for (std::string_view p : kPrefixes) lib = lib || name.starts_with(p);
    if (!lib) continue;
    if (const rules::Rule* r = rules.find_identifier(name);
        r && r->has_replacement() && r->status != rules::Status::Unsupported)
      continue;
    std::size_t last = lab + 1;
    if (file.is(last + 1, "return")) {
      std::size_t k = last + 2;
      int depth = 0;
      for (; k < file.code_size(); ++k) {
        if (file.is(k, "(") || file.is(k, "{") || file.is(k, "[")) ++depth;
        else if (file.is(k, ")") || file.is(k, "}") || file.is(k, "]")) --depth;
        else if (depth == 0 && file.is(k, ";")) break;
        if (depth < 0 || file.in_directive(k)) break;
      }
      if (k < file.code_size() && file.is(k, ";")) last = k;
    }
    const auto [b, e] = line_span(file, ci, last);
    if (!file.replace_bytes(b, e, "")) continue;
    file.diag(Diag::RocStatusCaseRemovedCuda, lab,
              "'" + std::string(name) +
                  "' has no CUDA twin and the CUDA library never returns it: the case is removed" +
                  (last > lab + 1 ? " with its return" : ""),
              "");
  }
}

// ---- staged generic calls ---------------------------------------------------------------------

struct Staged {
  std::string_view name;
  std::size_t args;            // argument count
  std::size_t stage;           // index of the stage argument; buffer size and buffer follow it
  std::string_view buffer_fn;  // the function of each stage
  std::string_view preprocess_fn;
  std::string_view compute_fn;
  bool compute_buffer;  // the compute function takes the buffer (cuSPARSE 12's SpSV/SpSM solve does not)
};
constexpr Staged kStaged[] = {
    {"rocsparse_spmv", 12, 9, "cusparseSpMV_bufferSize", "cusparseSpMV_preprocess", "cusparseSpMV", true},
    {"rocsparse_spmv_ex", 12, 9, "cusparseSpMV_bufferSize", "cusparseSpMV_preprocess", "cusparseSpMV", true},
    {"rocsparse_spmm", 13, 10, "cusparseSpMM_bufferSize", "cusparseSpMM_preprocess", "cusparseSpMM", true},
    // cuSPARSE's SpSV/SpSM take a solve descriptor rocSPARSE has no counterpart for: the compat
    // header keeps one per matrix (ferry/compat_cusparse.h).
    {"rocsparse_spsv", 11, 8, "ferry::cusparse_compat::spsv_buffer_size", "ferry::cusparse_compat::spsv_analysis",
     "ferry::cusparse_compat::spsv_solve", false},
    {"rocsparse_spsm", 12, 9, "ferry::cusparse_compat::spsm_buffer_size", "ferry::cusparse_compat::spsm_analysis",
     "ferry::cusparse_compat::spsm_solve", false},
};

void drop_args(migrate::FileMigration& file, const std::vector<ArgRange>& args,
               std::initializer_list<std::size_t> drop) {
  for (std::size_t k : drop) file.replace_bytes(file.code(args[k - 1].last).end, file.code(args[k].last).end, "");
}

void staged_calls(migrate::FileMigration& file) {
  for (const Staged& s : kStaged) {
    for (const std::uint32_t ci : file.occurrences(s.name)) {
      if (file.in_directive(ci) || file.excluded(ci) || file.touched(ci) || !file.is(ci + 1, "(") ||
          file.is_member_or_qualified(ci))
        continue;
      const std::vector<ArgRange> args = file.call_args(ci + 1);
      std::string_view stage;
      if (args.size() == s.args) {
        const ArgRange a = args[s.stage];
        if (a.first == a.last) stage = file.text(a.first);
        else if (a.last == a.first + 2 && file.is(a.first + 1, "::")) stage = file.text(a.last);  // enum::name
      }
      const std::string base(s.name.substr(0, s.name.ends_with("_ex") ? s.name.size() - 3 : s.name.size()));
      std::string to;
      if (stage == base + "_stage_buffer_size") to = std::string(s.buffer_fn);
      else if (stage == base + "_stage_preprocess") to = std::string(s.preprocess_fn);
      else if (stage == base + "_stage_compute") to = std::string(s.compute_fn);
      if (to.empty()) {
        file.replace(ci, ci, std::string(s.name));  // the rules leave it as written
        file.diag(Diag::RocsparseStageUnknownCuda, ci,
                  "'" + std::string(s.name) + "' takes its stage as an argument" +
                      (stage.empty() ? std::string() : " ('" + std::string(stage) + "')") +
                      "; cuSPARSE has one function per stage and Ferry cannot tell which one this call is",
                  "call " + std::string(s.buffer_fn) + ", " + std::string(s.preprocess_fn) + " and " +
                      std::string(s.compute_fn) + " (without the stage argument) where the stage is known");
        continue;
      }
      file.replace(ci, ci, to);
      std::string dropped;
      if (to == s.buffer_fn) {
        drop_args(file, args, {s.stage, s.stage + 2});  // keeps &buffer_size
        dropped = "the buffer";
      } else if (to == s.preprocess_fn || s.compute_buffer) {
        drop_args(file, args, {s.stage, s.stage + 1});  // keeps the buffer
        dropped = "the buffer size";
      } else {
        drop_args(file, args, {s.stage, s.stage + 1, s.stage + 2});
        dropped = "the buffer size and the buffer (given to the analysis)";
      }
      file.count_converted("cusparse");
      file.diag(Diag::RocsparseStageCallCuda, ci,
                "'" + std::string(s.name) + "' at stage '" + std::string(stage) + "' is '" + to +
                    "' (the stage argument and " + dropped + " go)",
                "");
    }
  }
}

// rocSPARSE 3's rocsparse_?bsrmv (and 2's _ex) take a rocsparse_mat_info before x: an optional
// analysis that only speeds the product up; cuSPARSE's bsrmv has none. The pass drops it (the rule
// row does the same, but not where the project #defines the name, as rocm-examples does for
// rocSPARSE 2).
void bsrmv_calls(migrate::FileMigration& file) {
  for (const char p : std::string_view("sdcz")) {
    for (const std::string_view suffix : {"", "_ex"}) {
      const std::string name = std::string("rocsparse_") + p + "bsrmv" + std::string(suffix);
      for (const std::uint32_t ci : file.occurrences(name)) {
        if (file.in_directive(ci) || file.excluded(ci) || file.touched(ci) || !file.is(ci + 1, "(") ||
            file.is_member_or_qualified(ci))
          continue;
        const std::vector<ArgRange> args = file.call_args(ci + 1);
        if (args.size() != 16) continue;
        const std::string to = std::string("cusparse") + static_cast<char>(p - 'a' + 'A') + "bsrmv";
        file.replace(ci, ci, to);
        drop_args(file, args, {12});
        file.count_converted("cusparse");
        file.diag(Diag::RocsparseMatInfoTypedCuda, Severity::Note, ci,
                  "'" + name + "' is '" + to +
                      "' without its rocsparse_mat_info argument (an optional analysis cuSPARSE does not have)",
                  "");
      }
    }
  }
}

// ---- rocsparse_mat_info ----------------------------------------------------------------------

struct InfoFamily {
  std::string_view algo;  // rocSPARSE's
  std::string_view type;  // cuSPARSE's
  std::string_view stem;  // cusparseCreate<stem> / cusparseDestroy<stem>
};
constexpr InfoFamily kInfoFamilies[] = {
    {"bsrsv", "bsrsv2Info_t", "Bsrsv2Info"},    {"bsrsm", "bsrsm2Info_t", "Bsrsm2Info"},
    {"csric0", "csric02Info_t", "Csric02Info"}, {"csrilu0", "csrilu02Info_t", "Csrilu02Info"},
    {"bsric0", "bsric02Info_t", "Bsric02Info"}, {"bsrilu0", "bsrilu02Info_t", "Bsrilu02Info"},
};

// The algorithm of a rocSPARSE call head (rocsparse_dbsrsv_analysis -> bsrsv), or null.
const InfoFamily* info_family(std::string_view head) {
  if (!head.starts_with("rocsparse_")) return nullptr;
  head.remove_prefix(10);
  for (std::string_view suffix : {"_buffer_size", "_analysis", "_solve", "_zero_pivot"})
    if (head.ends_with(suffix)) {
      head.remove_suffix(suffix.size());
      break;
    }
  for (int pass = 0; pass < 2; ++pass) {
    for (const InfoFamily& f : kInfoFamilies)
      if (head == f.algo) return &f;
    if (head.empty() || std::string_view("sdcz").find(head[0]) == std::string_view::npos) return nullptr;
    head.remove_prefix(1);
  }
  return nullptr;
}

// The identifier before the `(` that encloses code token `ci` directly, or npos.
std::size_t enclosing_head(const migrate::FileMigration& f, std::size_t ci) {
  int depth = 0;
  for (std::size_t k = ci; k-- > 0;) {
    if (f.is(k, ")") || f.is(k, "]") || f.is(k, "}")) ++depth;
    else if (f.is(k, "{") || f.is(k, ";")) return npos;
    else if (f.is(k, "(") || f.is(k, "[")) {
      if (depth == 0) return f.is(k, "(") && k > 0 && f.is_identifier(k - 1) ? k - 1 : npos;
      --depth;
    }
  }
  return npos;
}

// The statement holding code token `ci`: from after the previous `;`, `{` or `}` to its `;`.
std::pair<std::size_t, std::size_t> statement_of(const migrate::FileMigration& f, std::size_t ci) {
  std::size_t first = ci;
  while (first > 0 && !f.is(first - 1, ";") && !f.is(first - 1, "{") && !f.is(first - 1, "}") &&
         !f.in_directive(first - 1))
    --first;
  int depth = 0;
  std::size_t last = ci;
  for (; last < f.code_size(); ++last) {
    if (f.is(last, "(") || f.is(last, "[") || f.is(last, "{")) ++depth;
    else if (f.is(last, ")") || f.is(last, "]") || f.is(last, "}")) --depth;
    else if (f.is(last, ";") && depth <= 0) break;
  }
  return {first, last};
}

void mat_infos(migrate::FileMigration& file) {
  for (const std::uint32_t ti : file.occurrences("rocsparse_mat_info")) {
    if (file.in_directive(ti) || file.excluded(ti) || file.touched(ti) || file.is_member_or_qualified(ti)) continue;
    const std::size_t ni = ti + 1;
    if (!file.is_identifier(ni) || !(file.is(ni + 1, ";") || file.is(ni + 1, "{") || file.is(ni + 1, "=")))
      continue;  // a parameter, a member, a cast: the rules' row reports it
    const std::string name(file.text(ni));
    const InfoFamily* family = nullptr;
    bool several = false, unknown = false;
    std::vector<std::size_t> creates, destroys;
    std::string unknown_use;
    // Its uses: the name in the rest of the block that declares it.
    std::size_t close = file.code_size();
    for (std::size_t k = ti, depth = 0; k-- > 0;) {
      if (file.is(k, "}")) ++depth;
      else if (file.is(k, "{") && depth-- == 0) {
        if (const std::size_t p = file.partner(k); p != npos) close = p;
        break;
      }
    }
    for (const std::uint32_t u : file.occurrences(name)) {
      if (u <= ni || u >= close || file.is_member_or_qualified(u)) continue;
      const std::size_t head = enclosing_head(file, u);
      const std::string_view h = head == npos ? std::string_view() : file.text(head);
      if (h == "rocsparse_create_mat_info" && file.is(u - 1, "&")) creates.push_back(head);
      else if (h == "rocsparse_destroy_mat_info") destroys.push_back(head);
      else if (is_one_of(h, {"rocsparse_sbsrmv", "rocsparse_dbsrmv", "rocsparse_cbsrmv", "rocsparse_zbsrmv",
                             "rocsparse_sbsrmv_ex", "rocsparse_dbsrmv_ex", "rocsparse_cbsrmv_ex", "rocsparse_zbsrmv_ex",
                             "rocsparse_scsrmv", "rocsparse_dcsrmv", "rocsparse_ccsrmv", "rocsparse_zcsrmv"})) {
        // rules/hip2cuda/rocsparse.tsv drops this argument (an optional analysis cuSPARSE has not)
      } else if (const InfoFamily* f = info_family(h)) {
        several = several || (family && family != f);
        family = f;
      } else {
        unknown = true;
        if (unknown_use.empty()) unknown_use = head == npos ? "an expression" : "'" + std::string(h) + "'";
      }
    }
    if (several || unknown) {
      file.replace(ti, ti, "rocsparse_mat_info");  // left as written
      file.diag(
          Diag::RocsparseMatInfoUnresolvedCuda, ti,
          "'" + name + "' is a rocsparse_mat_info " +
              (several ? std::string("that several cuSPARSE algorithms would share") : "passed to " + unknown_use) +
              "; cuSPARSE has one info type per algorithm (bsrsv2Info_t, csric02Info_t, ...)",
          "declare one cuSPARSE info per algorithm (cusparseCreateBsrsv2Info, ...) and pass each to its calls");
      continue;
    }
    if (!family) {
      // Only the dropped argument of rocsparse_?bsrmv or ?csrmv read it: the variable and its lifetime go.
      const auto [df, dl] = statement_of(file, ti);
      bool ok = true;
      std::vector<std::pair<std::size_t, std::size_t>> stmts{{df, dl}};
      for (std::size_t h : creates) stmts.push_back(statement_of(file, h));
      for (std::size_t h : destroys) stmts.push_back(statement_of(file, h));
      for (const auto& [f, l] : stmts) ok = ok && l < file.code_size() && !file.touched(f) && !file.touched(l);
      if (!ok) continue;
      for (const auto& [f, l] : stmts) {
        const auto [b, e] = line_span(file, f, l);
        file.replace_bytes(b, e, "");
      }
      file.diag(Diag::RocsparseMatInfoTypedCuda, ti,
                "'" + name +
                    "' (rocsparse_mat_info) is read only by rocsparse_?bsrmv or rocsparse_?csrmv, whose cuSPARSE "
                    "twins take no info: "
                    "its declaration, creation and destruction are removed",
                "");
      continue;
    }
    file.replace(ti, ti, std::string(family->type));
    for (std::size_t h : creates) file.replace(h, h, "cusparseCreate" + std::string(family->stem));
    for (std::size_t h : destroys) file.replace(h, h, "cusparseDestroy" + std::string(family->stem));
    file.count_converted("cusparse");
    file.diag(Diag::RocsparseMatInfoTypedCuda, ti,
              "'" + name + "' (rocsparse_mat_info) serves rocSPARSE's " + std::string(family->algo) + ": it is a " +
                  std::string(family->type) + ", created and destroyed by cusparseCreate" + std::string(family->stem) +
                  " / cusparseDestroy" + std::string(family->stem),
              "");
  }
}

// ---- libraries with no same-shape twin ---------------------------------------------------------

// The file calls a rocsolver_* function no rule maps (rules/hip2cuda/rocsolver.tsv maps the LU ones).
bool unmapped_rocsolver_call(const migrate::FileMigration& file) {
  const rules::RuleSet& rules = file.target().rules();
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || !file.text(ci).starts_with("rocsolver_")) continue;
    const rules::Rule* r = rules.find_identifier(file.text(ci));
    if (!r || !r->has_replacement() || r->status == rules::Status::Unsupported) return true;
  }
  return false;
}

void no_twin_includes(migrate::FileMigration& file) {
  struct Lib {
    std::string_view header;
    std::string_view why;
  };
  static constexpr Lib kLibs[] = {
      {"rocsolver/rocsolver.h",
       "rocSOLVER's LAPACK-style calls take a rocblas_handle and allocate their own workspace; cuSOLVER's take a "
       "cusolverDnHandle_t and a workspace sized by a *_bufferSize query, and the tridiagonal output of syev and "
       "the batched eigensolvers have no cuSOLVER function of that shape (only getrf, getf2 and getri are bridged, "
       "by ferry/compat_cusolver.h)"},
      {"rocsolver.h", "rocSOLVER's calls take a rocblas_handle and no workspace; cuSOLVER's need a workspace"},
      {"rocfft/rocfft.h",
       "rocFFT's plan API (rocfft_plan_create with a plan description, execution info, callbacks and multi-GPU "
       "fields) has no same-shape cuFFT API: cuFFT plans with cufftPlanMany/cufftXt*"},
      {"rocfft.h", "rocFFT's plan API has no same-shape cuFFT API"},
      {"rocrand/rocrand.hpp",
       "rocRAND's C++ wrapper (rocrand_cpp:: engines and distributions) has no cuRAND counterpart: cuRAND has "
       "only its C API"},
      {"rocrand.hpp", "rocRAND's C++ wrapper has no cuRAND counterpart"},
  };
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (!file.is(ci, "#") || !file.is(ci + 1, "include") || file.excluded(ci)) {
      continue;
    }
    std::string_view h = file.text(ci + 2);
    if (h.size() < 2) continue;
    std::string path;
    if (h.front() == '"') path = std::string(h.substr(1, h.size() - 2));
    else if (h == "<") {
      for (std::size_t k = ci + 3; k <= file.directive_last(ci) && !file.is(k, ">"); ++k) path += file.text(k);
    } else if (h.front() == '<') path = std::string(h.substr(1, h.size() - 2));
    for (const Lib& l : kLibs)
      if (path == l.header) {
        // rocSOLVER's header maps (rules/hip2cuda/rocsparse.tsv); only its calls do not.
        if (path.starts_with("rocsolver") && !unmapped_rocsolver_call(file)) break;
        file.diag(Diag::RocNativeNoTwinCuda, ci + 2,
                  "'" + path + "': " + std::string(l.why) + "; the calls are left as written",
                  path.find("rocrand") != std::string::npos
                      ? "use hipRAND/cuRAND's C API (curandCreateGenerator, curandGenerate*)"
                      : (path.find("rocfft") != std::string::npos
                             ? "port the transforms to hipFFT (hipfftPlanMany), which Ferry maps to cuFFT"
                             : "port the calls to hipSOLVER (hipsolverDn*), which Ferry maps to cuSOLVER"));
        break;
      }
  }
}

}  // namespace

void roc_native_pass(migrate::FileMigration& file) {
  if (file.project().migrated_by == "hip") return;  // a round trip's way back: the CUDA original's text
  const std::string_view src = file.source();
  if (src.find("rocsparse") == std::string_view::npos && src.find("ROCSPARSE") == std::string_view::npos &&
      src.find("rocsolver") == std::string_view::npos && src.find("rocfft") == std::string_view::npos &&
      src.find("rocrand") == std::string_view::npos && src.find("rocblas_status_") == std::string_view::npos)
    return;
  version_tests(file);
  status_cases(file);
  staged_calls(file);
  bsrmv_calls(file);
  mat_infos(file);
  no_twin_includes(file);
}

void roc_native_finish(migrate::FileMigration& file) {
  // Written by an edit, or already in the source: a migrated file migrated again (a round trip's
  // second way there) keeps the calls and needs the header as much.
  bool sparse = file.mentions("cusparse_compat"), solver = file.mentions("cusolver_compat");
  for (const rewrite::Edit& e : file.edits().edits()) {
    sparse = sparse || e.replacement.find("ferry::cusparse_compat::") != std::string::npos;
    solver = solver || e.replacement.find("ferry::cusolver_compat::") != std::string::npos;
  }
  if (sparse) use_side_header(file, kCusparseHeaderName, kCusparseHeaderText);
  if (solver) use_side_header(file, kCusolverHeaderName, kCusolverHeaderText);
}

}  // namespace ferry::targets::cuda
