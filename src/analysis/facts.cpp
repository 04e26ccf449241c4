#include "analysis/facts.h"

#include <algorithm>
#include <cstdint>
#include <span>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

namespace {

// ---------------------------------------------------------------------------------------------
// Facts

void collect_constants(const CodeView& v, FileFacts& facts) {
  struct Raw {
    ConstantInfo info;
    std::string name;
    std::size_t value_first, value_last;
    std::size_t fn;  // function index or npos
    // A file-scope definition that is in `constants` under its own name_ci, or whose name is
    // conflicting: evaluating it again changes nothing (only a conflict removes an entry, and a
    // conflicting name stays so), so later rounds pass it by.
    bool settled = false;
  };
  std::vector<Raw> raws;
  // A definition starts at `# define` or at `const`/`constexpr`: their occurrences, in file order
  // (a `#` is the token before `define`); a #define read is skipped to its last token.
  std::size_t skip_through = 0;  // code indices below this are inside a #define already read
  for (const std::uint32_t at : v.occurrences({"define", "constexpr", "const"})) {
    if (v.is(at, "define")) {
      if (at == 0 || at - 1 < skip_through) continue;
      const std::size_t ci = at - 1;
      if (!(v.in_directive(ci) && v.is(ci, "#") && v.is_identifier(ci + 2) && v.in_directive(ci + 2))) continue;
      const std::size_t last = v.directive_last(ci);
      const std::size_t name = ci + 2;
      if (last <= name) continue;
      // function-like: '(' right after the name, without a space
      if (v.is(name + 1, "(") && v.code(name + 1).begin == v.code(name).end) continue;
      raws.push_back({{0, name, ci, last, true}, std::string(v.text(name)), name + 1, last, npos});
      skip_through = last + 1;
      continue;
    }
    const std::size_t ci = at;
    if (ci < skip_through || v.in_directive(ci)) continue;
    // [static|inline] constexpr|const <integer type words> NAME = expr ;
    std::size_t j = ci + 1;
    bool integer = false;
    while (v.is_identifier(j) &&
           (lex::is_integer_type_word(v.text(j)) || is_one_of(v.text(j), {"const", "constexpr", "static"})) &&
           !v.is(j + 1, "=")) {
      integer = integer || lex::is_integer_type_word(v.text(j));
      ++j;
      if (v.is(j, "::")) ++j;
    }
    if (!integer || !v.is_identifier(j) || !v.is(j + 1, "=")) continue;
    const std::size_t value_last = expression_last(v, j + 2, v.code_size() - 1);
    if (!v.is(value_last + 1, ";")) continue;
    std::size_t first = ci;
    while (first > 0 && (v.is(first - 1, "static") || v.is(first - 1, "inline"))) --first;
    raws.push_back(
        {{0, j, first, value_last + 1, false}, std::string(v.text(j)), j + 2, value_last, facts.function_at(ci)});
  }
  // Evaluate to a fixpoint: definitions may use each other in any order.
  std::set<std::string> conflicting;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (Raw& r : raws) {
      if (r.settled) continue;
      FunctionInfo* scope = r.fn == npos ? nullptr : &facts.functions[r.fn];
      const auto val = eval(v, facts, r.value_first, r.value_last, scope);
      if (!val) continue;
      if (scope) {
        auto [it, added] = scope->local_constants.emplace(r.name, *val);
        if (!added && it->second != *val) {
          it->second = *val;  // last one wins inside a function (shadowing is rare)
        }
        changed = changed || added;
        continue;
      }
      if (conflicting.count(r.name)) {
        r.settled = true;
        continue;
      }
      auto it = facts.constants.find(r.name);
      if (it == facts.constants.end()) {
        ConstantInfo c = r.info;
        c.value = *val;
        facts.constants.emplace(r.name, c);
        changed = true;
        r.settled = true;
      } else if (it->second.name_ci != r.info.name_ci && it->second.value != *val) {
        conflicting.insert(r.name);
        facts.constants.erase(it);
        changed = true;
        r.settled = true;
      } else if (it->second.name_ci == r.info.name_ci) {
        r.settled = true;
      }
    }
    if (!changed) break;
  }
}

// `facts`: its constants (if any) evaluate __launch_bounds__ arguments.
void collect_functions(const CodeView& v, FileFacts& facts) {
  const std::uint64_t lbrace = lex::short_key("{");  // other tokens are passed on their keys alone
  for (std::size_t ci = 0, n = v.code_size(); (ci = next_key(v, ci, n, lbrace)) < n; ++ci) {
    if (v.in_directive(ci)) continue;
    std::size_t k = ci;
    while (k > 0 && (is_one_of(v.text(k - 1),
                               {"const", "noexcept", "override", "final", "mutable", "__restrict__", "volatile"})))
      --k;
    if (k == 0 || !v.is(k - 1, ")")) continue;
    const std::size_t open = v.partner(k - 1);
    if (open == npos || open == 0 || !v.is_identifier(open - 1)) continue;
    const std::string_view name = v.text(open - 1);
    if (is_one_of(name, {"if", "for", "while", "switch", "catch", "__launch_bounds__", "alignas", "decltype", "sizeof",
                         "__attribute__", "return"}))
      continue;
    const std::size_t close = v.partner(ci);
    if (close == npos) continue;
    FunctionInfo fn;
    fn.name = std::string(name);
    fn.name_ci = open - 1;
    fn.body_open = ci;
    fn.body_close = close;
    // the declaration: back to the previous ';', '}', '{' or directive
    for (std::size_t d = open - 1; d > 0; --d) {
      const std::size_t p = d - 1;
      if (v.in_directive(p) || v.is(p, ";") || v.is(p, "}") || v.is(p, "{")) break;
      if (v.is(p, "__global__")) fn.is_kernel = fn.is_device = true;
      if (v.is(p, "__device__")) fn.is_device = true;
      if (v.is(p, "__host__")) fn.is_host = true;
      if (v.is(p, "__launch_bounds__") && v.is(p + 1, "(")) {
        const auto args = v.call_args(p + 1);
        if (!args.empty() && !args[0].empty()) {
          fn.launch_bounds = eval(v, facts, args[0].first, args[0].last, nullptr);
          fn.launch_bounds_ci = p;
        }
      }
    }
    facts.functions.push_back(std::move(fn));
    ci = close;
  }
  facts.functions.shrink_to_fit();  // a tree's planner holds every file's facts at once
}

}  // namespace

std::vector<FunctionInfo> function_definitions(const CodeView& v) {
  FileFacts facts;
  collect_functions(v, facts);
  return std::move(facts.functions);
}

std::size_t FileFacts::function_at(std::size_t ci) const {
  // Functions are in source order and never nest (collect_functions resumes after a body): the
  // only candidate is the last one whose body opens before `ci`.
  const auto after = std::partition_point(functions.begin(), functions.end(),
                                          [ci](const FunctionInfo& f) { return f.body_open < ci; });
  if (after == functions.begin()) return npos;
  const std::size_t i = static_cast<std::size_t>(after - functions.begin()) - 1;
  return ci < functions[i].body_close ? i : npos;
}

FileFacts collect_facts(const FileMigration& file, const std::map<std::string, long long>* project_constants) {
  FileFacts facts;
  facts.project_constants = project_constants;
  const CodeView& v = file;
  collect_functions(v, facts);
  collect_constants(v, facts);
  // Without a taint source in the file the dataflow below is skipped, and its results are
  // exactly what it would compute: with no helper yet, range_taint of any range can only be 0
  // (var_taint reads definitions whose taint is 0, and the data-index / warp-op adjustments
  // only clear bits or add kLane to a range already tainted kThread), so every definition's
  // taint is 0, no function becomes a helper and the first round settles. The helper sets
  // stay empty. FunctionInfo::defs is read only by range_taint (through
  // var_taint), where a list of taint-0 definitions and an empty list both give 0; it is left
  // empty.
  if (!has_taint_source(v)) return facts;
  // Lane/thread helpers and the per-function definitions, to a fixpoint across functions. A
  // function's definitions and return taints read the helper sets only at the calls in its body
  // (range_taint), so it is computed again only when a name of its body became a helper since its
  // last computation began ("stale"); otherwise it would compute the same again, and what it adds
  // to the sets is there already. Functions never nest (function_at).
  std::vector<bool> stale(facts.functions.size(), true);
  auto add_helper = [&](std::set<std::string>& helpers, const std::string& name) {
    if (!helpers.insert(name).second) return false;
    for (const std::uint32_t ci : v.occurrences(name))
      if (const std::size_t fi = facts.function_at(ci); fi != npos) stale[fi] = true;
    return true;
  };
  const std::span<const std::uint32_t> returns = v.occurrences("return");
  bool settled = false;
  for (int round = 0; round < 3 && !settled; ++round) {
    bool changed = false;
    for (std::size_t f = 0; f < facts.functions.size(); ++f) {
      if (!stale[f]) continue;
      stale[f] = false;
      FunctionInfo& fn = facts.functions[f];
      fn.defs = function_defs(v, facts, fn);
      const std::vector<VarDef>& defs = fn.defs;
      for (const std::size_t i : occurrences_in(returns, fn.body_open + 1, fn.body_close)) {
        const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
        const unsigned t = range_taint(v, facts, defs, i + 1, last);
        if ((t & kLane) && add_helper(facts.lane_helpers, fn.name)) changed = true;
        if ((t & kThread) && add_helper(facts.thread_helpers, fn.name)) changed = true;
      }
    }
    settled = !changed;
  }
  // A round that added no helper computed (or kept) every function's definitions with the final
  // helpers, which is what the checks read; when the round limit cut the fixpoint short, the
  // stale ones are computed again.
  if (!settled)
    for (std::size_t f = 0; f < facts.functions.size(); ++f)
      if (stale[f]) facts.functions[f].defs = function_defs(v, facts, facts.functions[f]);
  return facts;
}

void merge_project_constants(const FileFacts& facts, std::map<std::string, long long>& merged,
                             std::set<std::string>& conflicting) {
  for (const auto& [name, c] : facts.constants) {
    if (conflicting.count(name)) continue;
    const auto [it, added] = merged.emplace(name, c.value);
    if (!added && it->second != c.value) {
      merged.erase(it);
      conflicting.insert(name);
    }
  }
}

}  // namespace ferry::analysis
