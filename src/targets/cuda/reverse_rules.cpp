#include "targets/cuda/reverse_rules.h"

#include <cctype>
#include <map>
#include <utility>

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

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!(alpha || (i > 0 && c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// `head($0, HIP_SYMBOL($1), $2...)`: the head, when the template only renames the call (its
// arguments in order, possibly wrapped in HIP_SYMBOL, which the reverse unwraps by its own rule).
std::string renaming_head(std::string_view tmpl) {
  std::size_t n = 0;
  while (n < tmpl.size() && (std::isalnum(static_cast<unsigned char>(tmpl[n])) || tmpl[n] == '_')) ++n;
  const std::string head(tmpl.substr(0, n));
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
  return want == body ? head : std::string();
}

// `name` is `other` with "_v2" inserted before an optional "_64" suffix (cuBLAS aliases).
bool is_v2_alias(std::string_view name, std::string_view other) {
  return name == std::string(other) + "_v2" ||
         (other.ends_with("_64") &&
          name == std::string(other.substr(0, other.size() - 3)) + "_v2_64");
}

struct Group {
  RuleKind kind = RuleKind::Func;
  std::vector<ReverseCandidate> candidates;
  std::vector<std::string> families;
  std::vector<std::string> notes;
};

void collect(const RuleSet& forward, std::map<std::pair<int, std::string>, Group>& groups,
             ReverseStats& st) {
  for (const auto& r : forward.all()) {
    if (!r->has_replacement()) continue;
    if (r->status != Status::Supported && r->status != Status::Changed) continue;
    if (r->since.is_none()) continue;  // no HIP release has it (Ferry's compat headers give it): nothing to invert
    std::string hip = r->to;
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
        names = names && is_identifier(std::string(rest.substr(0, at)));
      if (!names || !is_identifier(std::string(rest))) continue;
    } else if (r->kind != RuleKind::Header && !is_identifier(hip)) {
      continue;  // an expression: nothing to invert
    }
    Group& g = groups[{index_class(kind), hip}];
    if (g.candidates.empty()) g.kind = kind;
    bool seen = false;  // same name from two tables (e.g. alt-rocblas)
    for (const ReverseCandidate& c : g.candidates) seen = seen || c.cuda == r->from;
    if (seen) continue;
    g.candidates.push_back({r->from, r->origin, r->status});
    g.families.push_back(r->family);
    g.notes.push_back(r->note);
  }
}

const Rule* find_in(const RuleSet& set, int cls, std::string_view name) {
  if (cls == 0) return set.find_header(name);
  if (cls == 1) return set.find_namespace(name);
  return set.find_identifier(name);
}

}  // namespace

void build_reverse_rules(RuleSet& out, ReverseStats* stats) {
  ReverseStats local;
  ReverseStats& st = stats ? *stats : local;

  RuleSet forward;
  const std::string_view skip[] = {"cuda2hip/alt-"};
  rules::load_builtin(forward, "cuda2hip/", skip);
  RuleSet forward_rocblas;  // --blas=rocblas tables, when present: rocblas_* → cublas*
  rules::load_builtin(forward_rocblas, "cuda2hip/alt-rocblas/");

  RuleSet explicit_rows;
  rules::load_builtin(explicit_rows, "hip2cuda/");
  st.explicit_rows = explicit_rows.size();

  std::map<std::pair<int, std::string>, Group> groups;
  collect(forward, groups, st);
  collect(forward_rocblas, groups, st);

  for (auto& [key, g] : groups) {
    const auto& [cls, hip] = key;
    std::size_t pick = 0;
    std::string how;
    if (g.candidates.size() > 1) {
      if (find_in(explicit_rows, cls, hip)) {
        how = "explicit";
      } else {
        for (std::size_t i = 0; i < g.candidates.size() && how.empty(); ++i)
          if (g.candidates[i].cuda == hip) pick = i, how = "identity";
        if (how.empty()) {
          std::vector<std::size_t> bases;
          for (std::size_t i = 0; i < g.candidates.size(); ++i) {
            bool alias = false;
            for (std::size_t j = 0; j < g.candidates.size(); ++j)
              alias = alias || (i != j && is_v2_alias(g.candidates[i].cuda, g.candidates[j].cuda));
            if (!alias) bases.push_back(i);
          }
          if (bases.size() == 1) pick = bases[0], how = "v2-alias";
        }
        if (how.empty()) {
          std::vector<std::size_t> supported;
          for (std::size_t i = 0; i < g.candidates.size(); ++i)
            if (g.candidates[i].status == Status::Supported) supported.push_back(i);
          if (supported.size() == 1) pick = supported[0], how = "only-supported";
          else {
            how = "unresolved";
            if (!supported.empty()) pick = supported[0];
          }
        }
      }
      st.many_to_one.push_back({g.kind, hip, g.candidates, g.candidates[pick].cuda, how});
    }
    if (how == "explicit") continue;  // the explicit row is added below
    const ReverseCandidate& c = g.candidates[pick];
    Rule r;
    r.kind = g.kind;
    r.status = c.status;
    r.from = hip;
    r.to = c.cuda;
    r.family = g.families[pick];
    if (c.status == Status::Changed)
      r.note = "inverse of " + c.origin + (g.notes[pick].empty() ? "" : ": " + g.notes[pick]);
    r.origin = c.origin + " (inverted)";
    out.add(std::move(r), RuleSet::Merge::RejectDuplicates);
    ++st.derived;
  }
  // Explicit rows win over derived ones.
  for (const auto& r : explicit_rows.all()) out.add(*r, RuleSet::Merge::Override);
}

}  // namespace ferry::targets::cuda
