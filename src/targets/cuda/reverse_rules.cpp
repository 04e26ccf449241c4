#include "targets/cuda/reverse_rules.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text.h"
#include "rules/builtin.h"

namespace ferry::targets::cuda {
namespace {

using rules::Rule;
using rules::RuleKind;
using rules::RuleSet;
using rules::Status;

// Which lookup a name lives in (RuleSet keeps headers, namespaces and identifiers apart).
int index_class(RuleKind k) {
  if (k == RuleKind::Header) return 0;
  if (k == RuleKind::Namespace) return 1;
  return 2;
}

// A C++ keyword (`int`, `unsigned`): the HIP side of a CUDA typedef of a builtin type
// (cusolver_int_t -> int). Inverting it would rename every `int` of HIP code.
bool is_keyword(std::string_view s) {
  static constexpr std::string_view kKeywords[] = {"bool",   "char",     "char8_t", "char16_t", "char32_t",
                                                   "double", "float",    "int",     "long",     "short",
                                                   "signed", "unsigned", "void",    "wchar_t"};
  for (std::string_view k : kKeywords)
    if (s == k) return true;
  return false;
}

// `head($0, HIP_SYMBOL($1), $2...)`: the head, when the template only renames the call (its
// arguments in order, possibly wrapped in HIP_SYMBOL, which the reverse unwraps by its own rule).
std::string_view renaming_head(std::string_view tmpl) {
  std::size_t n = 0;
  while (n < tmpl.size() && (std::isalnum(static_cast<unsigned char>(tmpl[n])) || tmpl[n] == '_')) ++n;
  const std::string_view head = tmpl.substr(0, n);
  if (!is_identifier(head) || tmpl.substr(n, 1) != "(" || tmpl.back() != ')') return {};
  std::string body(tmpl.substr(n + 1, tmpl.size() - n - 2));
  for (std::size_t at; (at = body.find("HIP_SYMBOL(")) != std::string::npos;) {
    const std::size_t close = body.find(')', at);
    if (close == std::string::npos) return {};
    body = body.substr(0, at) + body.substr(at + 11, close - at - 11) + body.substr(close + 1);
  }
  std::string want;
  for (std::size_t i = 0; want.size() < body.size(); ++i) {
    if (i > 0) want += ", ";
    want += "$" + std::to_string(i);
    if (want + "..." == body) return head;
  }
  return want == body ? head : std::string_view();
}

// `name` is `other` with "_v2" inserted before an optional "_64" suffix (cuBLAS aliases).
bool is_v2_alias(std::string_view name, std::string_view other) {
  return name == std::string(other) + "_v2" ||
         (other.ends_with("_64") && name == std::string(other.substr(0, other.size() - 3)) + "_v2_64");
}

// A forward row that inverts to a rule for `hip` (its `to`, or a call template's head): views
// into the forward sets, which live until the reverse table is built.
struct Inverse {
  int cls;  // index_class of the reverse rule's kind
  std::string_view hip;
  RuleKind kind;
  const Rule* forward;
};

void collect(const RuleSet& forward, std::vector<Inverse>& out, ReverseStats& st) {
  for (const Rule* r : forward.all()) {
    if (!r->has_replacement()) continue;
    if (r->status != Status::Supported && r->status != Status::Changed) continue;
    if (r->since.is_none()) continue;  // no HIP release has it (Ferry's compat headers give it): nothing to invert
    std::string_view hip = r->to;
    if (is_keyword(hip)) continue;  // a typedef of a builtin type: nothing to invert
    RuleKind kind = r->kind;
    if (r->kind == RuleKind::Call) {
      hip = renaming_head(r->to);
      kind = RuleKind::Func;
      if (hip.empty()) {
        ++st.skipped_calls;
        continue;
      }
    } else if (r->kind == RuleKind::Namespace) {
      // Qualified namespaces (thrust::cuda -> thrust::hip) invert as they are.
      bool names = true;
      std::string_view rest = hip;
      for (std::size_t at; (at = rest.find("::")) != std::string_view::npos; rest.remove_prefix(at + 2))
        names = names && is_identifier(rest.substr(0, at));
      if (!names || !is_identifier(rest)) continue;
    } else if (r->kind != RuleKind::Header && !is_identifier(hip)) {
      continue;  // an expression: nothing to invert
    } else if (r->kind == RuleKind::Header && hip.find_first_of("./") == std::string_view::npos) {
      // A header without extension or folder is the C++ standard library (cuda/std/cstdint ->
      // cstdint): HIP code including it is plain C++, and CUDA code includes it as it is.
      ++st.skipped_standard_headers;
      continue;
    }
    out.push_back({index_class(kind), hip, kind, r});
  }
}

const Rule* find_in(const RuleSet& set, int cls, std::string_view name) {
  if (cls == 0) return set.find_header(name);
  if (cls == 1) return set.find_namespace(name);
  return set.find_identifier(name);
}

}  // namespace

void build_reverse_rules(RuleSet& out, ReverseStats* stats, const rules::CudaVersion& version) {
  ReverseStats local;
  ReverseStats& st = stats ? *stats : local;

  RuleSet forward;
  const std::string_view skip[] = {"cuda2hip/alt-"};
  rules::load_builtin(forward, "cuda2hip/", skip);
  RuleSet forward_rocblas;  // --blas=rocblas tables, when present: rocblas_* → cublas*
  rules::load_builtin(forward_rocblas, "cuda2hip/alt-rocblas/");
  RuleSet forward_rocsparse;  // --sparse=rocsparse tables: rocsparse_* → cusparse*
  rules::load_builtin(forward_rocsparse, "cuda2hip/alt-rocsparse/");

  // Explicit rows; those of cuda_versions.tsv only for the CUDA releases their notes name, and
  // then over the other tables' rows of the same name.
  RuleSet explicit_rows;
  const std::string_view versioned[] = {"hip2cuda/cuda_versions.tsv"};
  rules::load_builtin(explicit_rows, "hip2cuda/", versioned);
  RuleSet versioned_rows;
  rules::load_builtin(versioned_rows, "hip2cuda/cuda_versions.tsv");
  for (const auto& r : versioned_rows.all())
    if (rules::note_allows(r->note, version)) explicit_rows.add(*r, RuleSet::Merge::Override);
  st.explicit_rows = explicit_rows.size();

  // The inverses grouped by reverse name (index class, then the name's bytes: the order of the
  // rules added below), each group's candidates in table order.
  std::vector<Inverse> inverses;
  collect(forward, inverses, st);
  collect(forward_rocblas, inverses, st);
  collect(forward_rocsparse, inverses, st);
  std::stable_sort(inverses.begin(), inverses.end(),
                   [](const Inverse& x, const Inverse& y) { return x.cls != y.cls ? x.cls < y.cls : x.hip < y.hip; });

  std::vector<const Rule*> g;  // one group's candidates: the forward rows
  for (std::size_t first = 0, last; first < inverses.size(); first = last) {
    const int cls = inverses[first].cls;
    const std::string_view hip = inverses[first].hip;
    const RuleKind kind = inverses[first].kind;
    g.clear();
    for (last = first; last < inverses.size() && inverses[last].cls == cls && inverses[last].hip == hip; ++last) {
      bool seen = false;  // same name from two tables (e.g. alt-rocblas)
      for (const Rule* c : g) seen = seen || c->from == inverses[last].forward->from;
      if (!seen) g.push_back(inverses[last].forward);
    }
    std::size_t pick = 0;
    std::string how;
    if (g.size() > 1) {
      if (find_in(explicit_rows, cls, hip)) {
        how = "explicit";
      } else {
        for (std::size_t i = 0; i < g.size() && how.empty(); ++i)
          if (g[i]->from == hip) pick = i, how = "identity";
        if (how.empty()) {
          std::vector<std::size_t> bases;
          for (std::size_t i = 0; i < g.size(); ++i) {
            bool alias = false;
            for (std::size_t j = 0; j < g.size(); ++j) alias = alias || (i != j && is_v2_alias(g[i]->from, g[j]->from));
            if (!alias) bases.push_back(i);
          }
          if (bases.size() == 1) pick = bases[0], how = "v2-alias";
        }
        if (how.empty()) {
          // HIP's runtime names take the runtime's types (hipStream_t is cudaStream_t, hipError_t is
          // cudaError_t): a driver spelling (CUstream, CUresult) would not type-check, changed or not.
          std::vector<std::size_t> runtime;
          bool others_driver = true;
          for (std::size_t i = 0; i < g.size(); ++i)
            if (g[i]->family == "runtime") runtime.push_back(i);
            else others_driver = others_driver && g[i]->family == "driver";
          if (runtime.size() == 1 && others_driver) pick = runtime[0], how = "runtime-over-driver";
        }
        if (how.empty()) {
          std::vector<std::size_t> supported;
          for (std::size_t i = 0; i < g.size(); ++i)
            if (g[i]->status == Status::Supported) supported.push_back(i);
          if (supported.size() == 1) pick = supported[0], how = "only-supported";
          else {
            how = "unresolved";
            if (!supported.empty()) pick = supported[0];
          }
        }
      }
      std::vector<ReverseCandidate> candidates;
      for (const Rule* c : g) candidates.push_back({std::string(c->from), c->origin(), c->status});
      st.many_to_one.push_back({kind, std::string(hip), std::move(candidates), std::string(g[pick]->from), how});
    }
    if (how == "explicit") continue;  // the explicit row is added below
    const Rule& c = *g[pick];
    // The rule views these strings and the forward sets; `out` keeps copies (RuleSet::add).
    const std::string origin = c.origin();
    const std::string note = c.status == Status::Changed
                                 ? "inverse of " + origin + (c.note.empty() ? "" : ": " + std::string(c.note))
                                 : std::string();
    const std::string inverted = origin + " (inverted)";
    Rule r;
    r.kind = kind;
    r.status = c.status;
    r.from = hip;
    r.to = c.from;
    r.family = c.family;
    r.note = note;
    r.table = inverted;
    out.add(r, RuleSet::Merge::RejectDuplicates);
    ++st.derived;
  }
  // ILP64 twins: cuBLAS 12 has `cublasX_64` for most routines, which the forward table lists as
  // unsupported (hipBLAS before ROCm 6.2 had none); hipBLAS's `hipblasY_64` is the twin of the
  // routine `cublasX` → `hipblasY` maps.
  if (version.at_least(12))
    for (const auto& r : forward.all()) {
      if (r->family != "cublas" || !r->from.ends_with("_64") || r->from.ends_with("_v2_64")) continue;
      const rules::Rule* base = forward.find_identifier(r->from.substr(0, r->from.size() - 3));
      if (!base || !base->has_replacement() || base->status != Status::Supported) continue;
      const std::string from = std::string(base->to) + "_64";
      const std::string origin = r->origin() + " (ILP64 twin of " + std::string(base->from) + ")";
      Rule twin;
      twin.kind = RuleKind::Func;
      twin.status = Status::Supported;
      twin.from = from;
      twin.to = r->from;
      twin.family = "cublas";
      twin.note = "ILP64 routine (64-bit sizes and strides), cuBLAS >= 12.0";
      twin.table = origin;
      if (!out.find_identifier(twin.from) && !explicit_rows.find_identifier(twin.from)) {
        out.add(twin, RuleSet::Merge::RejectDuplicates);
        ++st.derived;
      }
    }
  // hipBLAS's older complex API: `hipblasCher2` took hipblasComplex where `hipblasCher2_v2` (what
  // the forward table writes for cublasCher2) takes hipComplex; both are cuBLAS's cublasCher2.
  for (const auto& r : forward.all()) {
    if (r->family != "cublas" || r->status != Status::Supported || !r->to.ends_with("_v2") || r->from.ends_with("_v2"))
      continue;
    const std::string note = "hipBLAS's hipblasComplex form of " + std::string(r->to);
    const std::string origin = r->origin() + " (hipBLAS's pre-_v2 complex API)";
    Rule old_api;
    old_api.kind = RuleKind::Func;
    old_api.status = Status::Supported;
    old_api.from = r->to.substr(0, r->to.size() - 3);
    old_api.to = r->from;
    old_api.family = "cublas";
    old_api.note = note;
    old_api.table = origin;
    // Its ILP64 twin too: `hipblasDotEx_64` (hipBLAS's spelling before the _v2 API became the
    // default) is `hipblasDotEx_v2_64`, cuBLAS's `cublasDotEx_64` (CUDA >= 12).
    const rules::Rule* twin64 = out.find_identifier(std::string(r->to) + "_64");
    Rule old_64;
    std::string from_64, note_64, origin_64;
    if (twin64 && twin64->has_replacement()) {
      from_64 = std::string(old_api.from) + "_64";
      note_64 = "hipBLAS's spelling of " + std::string(r->to) + "_64: " + std::string(twin64->note);
      origin_64 = twin64->origin() + " (hipBLAS's pre-_v2 spelling)";
      old_64 = *twin64;
      old_64.from = from_64;
      old_64.note = note_64;
      old_64.table = origin_64;
      old_64.line = 0;
    }
    if (!out.find_identifier(old_api.from) && !explicit_rows.find_identifier(old_api.from)) {
      out.add(old_api, RuleSet::Merge::RejectDuplicates);
      ++st.derived;
    }
    if (!old_64.from.empty() && !out.find_identifier(old_64.from) && !explicit_rows.find_identifier(old_64.from)) {
      out.add(old_64, RuleSet::Merge::RejectDuplicates);
      ++st.derived;
    }
  }
  // Explicit rows win over derived ones.
  for (const auto& r : explicit_rows.all()) out.add(*r, RuleSet::Merge::Override);
}

}  // namespace ferry::targets::cuda
