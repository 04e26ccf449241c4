#include "analysis/hazards.h"

#include "lex/const_expr.h"

#include <algorithm>
#include <climits>
#include <array>
#include <cctype>
#include <functional>
#include <string>

namespace ferry::analysis {

using migrate::FileMigration;
using migrate::npos;
using migrate::ArgRange;
using lex::CodeView;

namespace {

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
  return is_one_of(s, {"return", "case", "throw", "else", "do", "co_return", "co_yield", "sizeof",
                       "const", "constexpr", "static", "volatile", "int", "unsigned", "auto",
                       "long", "short", "char", "float", "double", "bool", "void", "signed"});
}

// Names that say "the width of a warp": WARP_SIZE, kWarpSize, warp_width, THREADS_PER_WARP,
// WAVEFRONT_SIZE. Plural "warps" means a count of warps and is excluded.
bool contains_nocase(std::string_view s, std::string_view lower_word) {
  if (s.size() < lower_word.size()) return false;
  for (std::size_t i = 0; i + lower_word.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < lower_word.size() &&
           std::tolower(static_cast<unsigned char>(s[i + k])) == lower_word[k])
      ++k;
    if (k == lower_word.size()) return true;
  }
  return false;
}

bool is_warp_width_name(std::string_view name) {
  // Most identifiers say neither: answer those without building the lowercase copy.
  if (!contains_nocase(name, "warp") && !contains_nocase(name, "wave")) return false;
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
const std::array<std::string_view, 17> kWarpSyncFunctions = {
    "__shfl_sync",       "__shfl_up_sync",     "__shfl_down_sync",  "__shfl_xor_sync",
    "__ballot_sync",     "__any_sync",         "__all_sync",        "__uni_sync",
    "__match_any_sync",  "__match_all_sync",   "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync",  "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync", "__fns"};

bool is_ballot_call_name(std::string_view t) {
  return t == "__ballot_sync" || t == "__ballot" || t == "__activemask";
}

// ---------------------------------------------------------------------------------------------
// Token helpers over the file's lex::CodeView

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
  return k == lex::Kind::Number || k == lex::Kind::String || k == lex::Kind::Char || v.is(ci, ")") ||
         v.is(ci, "]");
}

// The named constants an expression in `scope` (or at file scope) sees: the function's constant
// locals, the file's constants, then the project's.
class FactNames final : public lex::ConstNames {
 public:
  FactNames(const FileFacts& facts, const FunctionInfo* scope) : facts_(facts), scope_(scope) {}
  [[nodiscard]] std::optional<long long> value(std::string_view name) const override {
    const std::string n(name);
    if (scope_) {
      const auto it = scope_->local_constants.find(n);
      if (it != scope_->local_constants.end()) return it->second;
    }
    const auto it = facts_.constants.find(n);
    if (it != facts_.constants.end()) return it->second.value;
    const auto pit = facts_.project_constants.find(n);
    if (pit != facts_.project_constants.end()) return pit->second;
    return std::nullopt;
  }

 private:
  const FileFacts& facts_;
  const FunctionInfo* scope_;
};

std::optional<long long> eval(const CodeView& v, const FileFacts& facts, std::size_t first, std::size_t last,
                              const FunctionInfo* scope) {
  const FactNames names(facts, scope);
  return lex::eval_const(v, first, last, &names);
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
    if ((v.is(i + 1, ".") || v.is(i + 1, "->")) && v.is_identifier(i + 2)) { i += 2; continue; }
    if (v.is(i + 1, "(") || v.is(i + 1, "[")) {
      const std::size_t p = v.partner(i + 1);
      if (p == npos) return i;
      i = p;
      continue;
    }
    return i;
  }
}

// ---------------------------------------------------------------------------------------------
// Dataflow

enum Taint : unsigned { kNone = 0, kThread = 1, kLane = 2, kBallot = 4 };

using Def = VarDef;

bool is_warp_const(const FileFacts& facts, std::string_view name) {
  if (!is_warp_width_name(name)) return false;
  const auto it = facts.constants.find(std::string(name));
  if (it != facts.constants.end()) return it->second.value == 32 || it->second.value == 64;
  const auto pit = facts.project_constants.find(std::string(name));
  return pit != facts.project_constants.end() && (pit->second == 32 || pit->second == 64);
}

// Taint of the variable `name` at code index `at` in function `fn`: the latest definition before.
unsigned var_taint(const std::vector<Def>& defs, std::string_view name, std::size_t at) {
  unsigned t = kNone;
  for (const Def& d : defs) {
    if (d.at >= at) break;
    if (d.name == name) t = d.taint;
  }
  return t;
}

// Taint of code range [first, last] in function `fi`.
unsigned range_taint(const CodeView& v, const FileFacts& facts, const std::vector<Def>& defs, std::size_t first,
                     std::size_t last) {
  unsigned t = kNone;
  bool data_index = false;
  bool warp_op = false;
  for (std::size_t i = first; i <= last && i < v.code_size(); ++i) {
    const std::string_view s = v.text(i);
    if (v.is_identifier(i)) {
      if (v.is_member_name(i)) continue;
      const bool call = v.is(i + 1, "(");
      if (s == "threadIdx" || s == "blockDim" || s == "hipThreadIdx_x" || s == "hipBlockDim_x")
        t |= kThread;
      else if (s == "blockIdx" || s == "gridDim") data_index = true;
      else if (s == "__lane_id" || s == "__lanemask_lt" || (call && facts.lane_helpers.count(std::string(s))))
        t |= kThread | kLane;
      else if (call && facts.thread_helpers.count(std::string(s))) t |= kThread;
      else if (call && is_ballot_call_name(s)) t |= kBallot;
      else if (!call) t |= var_taint(defs, s, i);
      continue;
    }
    // a warp-width operation: & 31, % 32, >> 5, / 32, or their named-constant/warpSize forms
    if ((s == "&" && v.is_number(i + 1) && parse_int(v.text(i + 1)) == 31) ||
        ((s == "%" || s == "/") &&
         ((v.is_number(i + 1) && (parse_int(v.text(i + 1)) == 32 || parse_int(v.text(i + 1)) == 64)) ||
          v.is(i + 1, "warpSize") || (v.is_identifier(i + 1) && is_warp_const(facts, v.text(i + 1))))) ||
        (s == ">>" && v.is_number(i + 1) && (parse_int(v.text(i + 1)) == 5 || parse_int(v.text(i + 1)) == 6)))
      warp_op = true;
    if (s == "&" && v.is(i + 1, "(") &&
        ((v.is_identifier(i + 2) && (is_warp_const(facts, v.text(i + 2)) || v.is(i + 2, "warpSize"))) &&
         v.is(i + 3, "-") && v.is(i + 4, "1")))
      warp_op = true;
  }
  if (data_index) t &= ~static_cast<unsigned>(kThread | kLane);
  if ((t & kThread) && warp_op) t |= kLane;
  return t;
}

// Whether code token `ci` names a taint source of range_taint: its identifiers threadIdx,
// blockDim, hipThreadIdx_x, hipBlockDim_x, __lane_id, __lanemask_lt, or a ballot call name.
// Keep in step with range_taint. (Lane and thread helpers are not sources of their own: a
// function becomes one only when its return value is tainted by one of these.)
bool is_taint_source(const CodeView& v, std::size_t ci) {
  if (!v.is_identifier(ci)) return false;
  const std::string_view s = v.text(ci);
  return s == "threadIdx" || s == "blockDim" || s == "hipThreadIdx_x" || s == "hipBlockDim_x" ||
         s == "__lane_id" || s == "__lanemask_lt" || is_ballot_call_name(s);
}

bool has_taint_source(const CodeView& v) {
  for (std::size_t ci = 0; ci < v.code_size(); ++ci)
    if (is_taint_source(v, ci)) return true;
  return false;
}

// All `name = expr` definitions in a function body (declarations and plain assignments).
std::vector<Def> function_defs(const CodeView& v, const FileFacts& facts, const FunctionInfo& fn) {
  std::vector<Def> defs;
  for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
    if (!v.is(i, "=") || !v.is_identifier(i - 1) || v.is_member_name(i - 1)) continue;
    const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
    Def d{v.text(i - 1), i, kNone};
    d.taint = range_taint(v, facts, defs, i + 1, last);
    defs.push_back(std::move(d));
  }
  return defs;
}

// ---------------------------------------------------------------------------------------------
// Facts

void collect_constants(const CodeView& v, FileFacts& facts) {
  struct Raw {
    ConstantInfo info;
    std::size_t value_first, value_last;
    std::size_t fn;  // function index or npos
  };
  std::vector<Raw> raws;
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (v.in_directive(ci) && v.is(ci, "#") && v.is(ci + 1, "define") && v.is_identifier(ci + 2) &&
        v.in_directive(ci + 2)) {
      const std::size_t last = v.directive_last(ci);
      const std::size_t name = ci + 2;
      if (last <= name) continue;
      // function-like: '(' right after the name, without a space
      if (v.is(name + 1, "(") && v.code(name + 1).begin == v.code(name).end) continue;
      raws.push_back({{std::string(v.text(name)), 0, name, ci, last, true}, name + 1, last, npos});
      ci = last;
      continue;
    }
    if (v.in_directive(ci)) continue;
    if (!(v.is(ci, "constexpr") || v.is(ci, "const"))) continue;
    // [static|inline] constexpr|const <integer type words> NAME = expr ;
    std::size_t j = ci + 1;
    bool integer = false;
    while (v.is_identifier(j) && (lex::is_integer_type_word(v.text(j)) || is_one_of(v.text(j), {"const", "constexpr", "static"})) &&
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
    raws.push_back({{std::string(v.text(j)), 0, j, first, value_last + 1, false}, j + 2, value_last,
                    facts.function_at(ci)});
  }
  // Evaluate to a fixpoint: definitions may use each other in any order.
  std::set<std::string> conflicting;
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (Raw& r : raws) {
      FunctionInfo* scope = r.fn == npos ? nullptr : &facts.functions[r.fn];
      const auto val = eval(v, facts, r.value_first, r.value_last, scope);
      if (!val) continue;
      if (scope) {
        auto [it, added] = scope->local_constants.emplace(r.info.name, *val);
        if (!added && it->second != *val) {
          it->second = *val;  // last one wins inside a function (shadowing is rare)
        }
        changed = changed || added;
        continue;
      }
      if (conflicting.count(r.info.name)) continue;
      auto it = facts.constants.find(r.info.name);
      if (it == facts.constants.end()) {
        ConstantInfo c = r.info;
        c.value = *val;
        facts.constants.emplace(c.name, c);
        changed = true;
      } else if (it->second.name_ci != r.info.name_ci && it->second.value != *val) {
        conflicting.insert(r.info.name);
        facts.constants.erase(it);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

void collect_functions(const CodeView& v, FileFacts& facts) {
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (v.in_directive(ci) || !v.is(ci, "{")) continue;
    std::size_t k = ci;
    while (k > 0 && (is_one_of(v.text(k - 1), {"const", "noexcept", "override", "final", "mutable",
                                            "__restrict__", "volatile"})))
      --k;
    if (k == 0 || !v.is(k - 1, ")")) continue;
    const std::size_t open = v.partner(k - 1);
    if (open == npos || open == 0 || !v.is_identifier(open - 1)) continue;
    const std::string_view name = v.text(open - 1);
    if (is_one_of(name, {"if", "for", "while", "switch", "catch", "__launch_bounds__", "alignas",
                         "decltype", "sizeof", "__attribute__", "return"}))
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
      if (v.is(p, "__global__")) fn.is_kernel = true;
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
void report(FileMigration& f, Diag code, std::size_t ci, std::string msg, std::string hint,
            bool fixed = false) {
  if (f.excluded(ci)) return;
  f.diag(code, fixed ? Severity::Note : Severity::Warning, ci, std::move(msg),
         std::move(hint));
}

}  // namespace

// =============================================================================================

std::size_t FileFacts::function_at(std::size_t ci) const {
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (ci > functions[i].body_open && ci < functions[i].body_close) return i;
  return npos;
}

FileFacts collect_facts(const FileMigration& file,
                        const std::map<std::string, long long>* project_constants) {
  FileFacts facts;
  if (project_constants) facts.project_constants = *project_constants;
  const CodeView& v = file;
  collect_functions(v, facts);
  collect_constants(v, facts);
  // Without a taint source in the file the dataflow below is skipped, and its results are
  // exactly what it would compute: with no helper yet, range_taint of any range can only be 0
  // (var_taint reads definitions whose taint is 0, and the data-index / warp-op adjustments
  // only clear bits or add kLane to a range already tainted kThread), so every definition's
  // taint is 0, no function becomes a helper and the first round settles. The variable sets
  // and helper sets stay empty. FunctionInfo::defs is read only by range_taint (through
  // var_taint), where a list of taint-0 definitions and an empty list both give 0; it is left
  // empty.
  if (!has_taint_source(v)) return facts;
  // Lane/thread helpers and the per-function variable sets, to a fixpoint across functions.
  bool settled = false;
  for (int round = 0; round < 3 && !settled; ++round) {
    bool changed = false;
    for (FunctionInfo& fn : facts.functions) {
      fn.defs = function_defs(v, facts, fn);
      const std::vector<Def>& defs = fn.defs;
      for (const Def& d : defs) {
        if (d.taint & kThread) fn.thread_vars.insert(std::string(d.name));
        if (d.taint & kLane) fn.lane_vars.insert(std::string(d.name));
        if (d.taint & kBallot) fn.ballot_vars.insert(std::string(d.name));
      }
      for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
        if (!v.is(i, "return")) continue;
        const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
        const unsigned t = range_taint(v, facts, defs, i + 1, last);
        if ((t & kLane) && facts.lane_helpers.insert(fn.name).second) changed = true;
        if ((t & kThread) && facts.thread_helpers.insert(fn.name).second) changed = true;
      }
    }
    settled = !changed;
  }
  // A round that added no helper computed every function's definitions with the final helpers,
  // which is what the checks read; when the round limit cut the fixpoint short, recompute them.
  if (!settled)
    for (FunctionInfo& fn : facts.functions) fn.defs = function_defs(v, facts, fn);
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

std::optional<long long> eval_constant(const FileMigration& file, const FileFacts& facts,
                                       std::size_t first, std::size_t last,
                                       const FunctionInfo* scope) {
  const CodeView& v = file;
  return eval(v, facts, first, last, scope);
}

bool wave64_checks_apply(const Profile& profile) { return profile.wave_size > 32; }

bool is_hazard_code(Diag code) {
  const auto id = static_cast<unsigned>(code);
  return (id >= 2200 && id < 2300) || (id >= 3200 && id < 3300);
}

const std::vector<DiagInfo>& hazard_codes() {
  static const std::vector<DiagInfo> kCodes = [] {
    std::vector<DiagInfo> v;
    for (const DiagInfo& d : diagnostic_table())
      if (is_hazard_code(d.code)) v.push_back(d);
    return v;
  }();
  return kCodes;
}

// ----- FRY2201 FRY2202 FRY2203 ---------------------------------------------------------------

void check_lane_arithmetic(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
      const std::string_view s = v.text(i);
      if (!(v.is(i, "&") || v.is(i, "%") || v.is(i, "/") || v.is(i, ">>") || v.is(i, "<<")) ||
          !ends_operand(v, i - 1))
        continue;
      if (s == "<<") {
        // FRY2203: 1 << lane with a 32-bit literal 1
        if (!v.is_number(i - 1) || parse_int(v.text(i - 1)) != 1 || !lex::is_32bit_literal(v.text(i - 1)))
          continue;
        if (is_one_of(v.text(i - 2), {".", "*", "/", "%", "->"})) continue;
        const std::size_t rl = primary_last(v, i + 1);
        if (rl == npos) continue;
        const unsigned t = range_taint(v, facts, facts.functions[fi].defs, i + 1, rl);
        if (!(t & (kThread | kLane))) continue;
        report(file, Diag::LaneBit32, i - 1,
               "'" + std::string(v.text(i - 1)) + " << " + std::string(file.span_text(i + 1, rl)) +
                   "' builds a lane bit in a 32-bit integer; " + prof_why(p) +
                   ", and shifting by 32..63 is undefined",
               "use a 64-bit mask: 1ull << " + std::string(file.span_text(i + 1, rl)) +
                   " (and uint64_t / unsigned long long for every mask that holds it)");
        continue;
      }
      const std::size_t r = i + 1;
      if (!v.is_number(r)) continue;
      const auto val = parse_int(v.text(r));
      const bool lane_op = (s == "&" && val == 31) || (s == "%" && val == 32);
      const bool warp_op = (s == ">>" && val == 5) || (s == "/" && val == 32);
      if (!lane_op && !warp_op) continue;
      // the literal must be the whole right operand
      const std::string_view after = v.text(r + 1);
      if (is_one_of(after, {"(", "[", ".", "->"})) continue;
      if (s == "&" && lex::binary_precedence(after) > lex::binary_precedence("&")) continue;
      if (s == ">>" && lex::binary_precedence(after) > lex::binary_precedence(">>")) continue;
      const std::size_t lf = left_operand_first(v, i, fn.body_open + 1);
      if (lf >= i) continue;
      const unsigned t = range_taint(v, facts, facts.functions[fi].defs, lf, i - 1);
      if (!(t & kThread)) continue;
      const std::string lhs(file.span_text(lf, i - 1));
      const std::string expr = lhs + " " + std::string(s) + " " + std::string(v.text(r));
      const bool count = lhs.find("blockDim") != std::string::npos;
      if (lane_op) {
        report(file, Diag::LaneId32, i,
               "'" + expr + "' computes a lane id for 32-lane warps; " + prof_why(p) +
                   ", so lanes 32.." + std::to_string(p.wave_size - 1) + " get the ids of lanes 0..31",
               "use " + lhs + " % warpSize (or " + lhs + " & (warpSize - 1); __lane_id() in HIP)");
      } else {
        report(file, Diag::WarpIndex32, i,
               "'" + expr + "' computes a " + (count ? "warp count" : "warp index") +
                   " for 32-lane warps; " + prof_why(p) + ", so it is twice what the wavefront " +
                   (count ? "count" : "index") + " is",
               "use " + lhs + " / warpSize");
      }
    }
  }
}

// ----- FRY2204 -------------------------------------------------------------------------------

namespace {

// Is the use of warp-width constant NAME at `ci` one that means "the width of a warp"?
// Allowed: a divisor or modulus (x / N, x % N, /=, %=), a multiplier (w * N, N * w), a lane
// stride (+= N, -= N), a lane bound (lane < N), half a warp (N / 2), a lane mask or round-up
// (& (N - 1), x + N - 1), the divisor of a ceil-div helper (CEIL_DIV(x, N)), the width argument
// of a shuffle, and the extent of an array (one slot per lane).
bool is_warp_width_use(const CodeView& v, std::size_t ci) {
  if (v.in_directive(ci)) return false;  // #if N == 32: a preprocessor decision, not a width
  std::size_t q = ci;  // skip a qualification: ns::N
  while (q >= 2 && v.is(q - 1, "::") && v.is_identifier(q - 2)) q -= 2;
  if (q >= 1 && v.is(q - 1, "::")) --q;
  const std::string_view prev = q > 0 ? v.text(q - 1) : std::string_view();
  const std::string_view next = v.text(ci + 1);
  if (is_one_of(prev, {"/", "%", "/=", "%=", "+=", "-=", "*", "<", "<=", ">", ">="})) return true;
  if (is_one_of(next, {"/", "*"}) && !is_one_of(prev, {"<<", ">>"})) return true;
  if (next == "-" && v.is(ci + 2, "1") && is_one_of(prev, {"(", "+"})) return true;
  if (prev == "[" && next == "]") return true;
  if (prev == "," && (next == ")" || next == ",")) {
    // the argument of a call: which call, which position?
    std::size_t open = ci;
    int depth = 0;
    while (open > 0) {
      --open;
      if (v.is(open, ")") || v.is(open, "]")) ++depth;
      else if (v.is(open, "(") || v.is(open, "[")) {
        if (depth == 0) break;
        --depth;
      }
    }
    if (!v.is(open, "(") || open == 0 || !v.is_identifier(open - 1)) return false;
    const std::string callee = lower(v.text(open - 1));
    if (callee.find("div") != std::string::npos) return true;  // CEIL_DIV(x, N), div_up(x, N)
    if (callee.rfind("__shfl", 0) == 0) return true;            // the width argument
  }
  return false;
}

}  // namespace

std::vector<std::string> warp_constant_names(const FileMigration& file, const FileFacts& facts) {
  (void)file;
  std::vector<std::string> out;
  for (const auto& [name, c] : facts.constants)
    if (c.value == 32 && is_warp_width_name(name)) out.push_back(name);
  return out;
}

void record_warp_constant_uses(const FileMigration& file, const FileFacts& /*facts: the uses are tokens*/,
                               WarpConstantUses& uses) {
  const CodeView& v = file;
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (!v.is_identifier(ci) || !is_warp_width_name(v.text(ci))) continue;
    const std::string name(v.text(ci));
    // the definition itself
    if (v.in_directive(ci) && ci >= 2 && v.is(ci - 1, "define")) continue;
    if (v.is(ci + 1, "=") && !v.is(ci + 2, "=")) continue;
    if (v.in_directive(ci) && ci >= 1 && is_one_of(v.text(ci - 1), {"ifdef", "ifndef", "undef"})) continue;
    if (v.in_directive(ci) && ci >= 2 && v.is(ci - 1, "(") && v.is(ci - 2, "defined")) continue;
    if (is_warp_width_use(v, ci)) continue;
    if (uses.other_use.insert(name).second)
      uses.other_use_where[name] = std::string(file.path()) + ":" + std::to_string(file.code(ci).line);
  }
}

void check_warp_constants(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const Profile& p = *opt.profile;
  const std::vector<std::string> names = warp_constant_names(file, facts);
  if (names.empty()) return;  // the uses only matter for the file's own warp-width constants
  WarpConstantUses local;
  const WarpConstantUses* uses = opt.warp_uses;
  if (!uses) {
    record_warp_constant_uses(file, facts, local);
    uses = &local;
  }
  for (const std::string& name : names) {
    const ConstantInfo& c = facts.constants.at(name);
    const bool safe = !uses->other_use.count(name);
    std::string hint;
    bool fixed = false;
    const std::string amd = "#if defined(__HIP_PLATFORM_AMD__)";
    if (opt.apply_fixes && safe) {
      const lex::Token& first = file.code(c.first_ci);
      // indentation of the definition's line, for the lines we add
      std::uint32_t bol = first.begin;
      while (bol > 0 && file.source()[bol - 1] != '\n') --bol;
      const std::string indent(file.source().substr(bol, first.begin - bol));
      bool only_space = indent.find_first_not_of(" \t") == std::string::npos;
      std::string text;
      if (c.is_macro) {
        const std::string value(file.span_text(c.name_ci + 1, c.last_ci));
        text = amd + "\n" + indent + "#define " + name + " " + std::to_string(p.wave_size) +
               "  // ferry: wavefront width of " + p.name + "\n" + indent + "#else\n" + indent +
               "#define " + name + " " + value + "\n" + indent + "#endif";
      } else if (only_space) {
        const std::string decl(file.span_text(c.first_ci, c.last_ci));
        const std::string head(file.span_text(c.first_ci, c.name_ci + 1));  // "... NAME ="
        text = amd + "\n" + indent + head + " " + std::to_string(p.wave_size) +
               ";  // ferry: wavefront width of " + p.name + "\n" + indent + "#else\n" + indent +
               decl + "\n" + indent + "#endif";
      }
      if (!text.empty() && only_space)
        fixed = file.replace(c.first_ci, c.last_ci, std::move(text));
    }
    if (fixed) {
      hint = "fixed (--fix): the value is now " + std::to_string(p.wave_size) +
             " under __HIP_PLATFORM_AMD__ and stays 32 elsewhere; every use is a warp width";
    } else if (safe) {
      hint = "make it per target: #if defined(__HIP_PLATFORM_AMD__) / #define " + name + " " +
             std::to_string(p.wave_size) +
             " / #else ... 32 / #endif (in device-only code, warpSize); every use is a warp "
             "width, so 'ferry analyze --fix' can do it";
    } else {
      const auto w = uses->other_use_where.find(name);
      hint = "make it per target (" + std::to_string(p.wave_size) +
             " under __HIP_PLATFORM_AMD__, or warpSize in device code); not fixed automatically: '" +
             name + "' is also used as something other than a warp width" +
             (w != uses->other_use_where.end() ? " at " + w->second : std::string());
    }
    report(file, Diag::WarpWidthConstant, c.name_ci,
           "'" + name + "' fixes the warp width at 32; " + prof_why(p) +
               ", so lane ids, warp indices and reductions derived from it are wrong",
           hint, fixed);
  }
}

// ----- FRY2205 -------------------------------------------------------------------------------

void check_shuffle_loops(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.code_size(); ++ci) {
    if (!v.is(ci, "for") || !v.is(ci + 1, "(") || facts.function_at(ci) == npos) continue;
    const std::size_t close = v.partner(ci + 1);
    if (close == npos) continue;
    // split the header at top-level ';'
    std::vector<std::size_t> semis;
    for (std::size_t i = ci + 2; i < close; ++i) {
      if (v.is(i, "(") || v.is(i, "[") || v.is(i, "{")) {
        i = v.partner(i) == npos ? i : v.partner(i);
        continue;
      }
      if (v.is(i, ";")) semis.push_back(i);
    }
    if (semis.size() != 2) continue;
    // init: [type] var = <literal>
    std::size_t eq = npos;
    for (std::size_t i = ci + 2; i < semis[0]; ++i)
      if (v.is(i, "=")) { eq = i; break; }
    if (eq == npos || !v.is_identifier(eq - 1) || eq + 2 != semis[0] || !v.is_number(eq + 1)) continue;
    const std::string var(v.text(eq - 1));
    const auto start = parse_int(v.text(eq + 1));
    // step
    const std::string step(file.span_text(semis[1] + 1, close - 1));
    auto squeeze = [](std::string s) {
      s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
      return s;
    };
    const std::string st = squeeze(step);
    const bool halving = st == var + ">>=1" || st == var + "/=2" || st == var + "=" + var + ">>1" ||
                         st == var + "=" + var + "/2";
    const bool doubling = st == var + "<<=1" || st == var + "*=2" || st == var + "=" + var + "<<1" ||
                          st == var + "=" + var + "*2";
    const std::string cond = squeeze(std::string(file.span_text(semis[0] + 1, semis[1] - 1)));
    std::size_t hit = npos;
    if (halving && start == 16) hit = eq + 1;
    if (doubling && start == 1 && (cond == var + "<32" || cond == var + "<=16")) {
      for (std::size_t i = semis[0] + 1; i < semis[1]; ++i)
        if (v.is_number(i)) hit = i;
    }
    if (hit == npos) continue;
    // body
    std::size_t body_first = close + 1, body_last;
    if (v.is(body_first, "{")) {
      body_last = v.partner(body_first);
      if (body_last == npos) continue;
    } else {
      body_last = body_first;
      while (body_last < v.code_size() && !v.is(body_last, ";")) {
        if (v.partner(body_last) != npos && (v.is(body_last, "(") || v.is(body_last, "{") || v.is(body_last, "[")))
          body_last = v.partner(body_last);
        ++body_last;
      }
    }
    bool shuffles = false, safe = halving;
    for (std::size_t i = body_first; i <= body_last && i < v.code_size(); ++i) {
      if (v.is_identifier(i) && v.text(i).rfind("__shfl", 0) == 0 && v.is(i + 1, "(")) {
        shuffles = true;
        const std::string_view fname = v.text(i);
        const bool sync = fname.size() > 5 && fname.substr(fname.size() - 5) == "_sync";
        const bool kind_ok = is_one_of(fname, {"__shfl_xor_sync", "__shfl_down_sync", "__shfl_xor", "__shfl_down"});
        const auto args = file.call_args(i + 1);
        const std::size_t want = sync ? 3 : 2;
        if (!kind_ok || args.size() != want) { safe = false; continue; }
        if (sync) {
          const auto m = eval(v, facts, args[0].first, args[0].last, nullptr);
          if (!m || (*m != 0xffffffffLL && *m != -1)) safe = false;
        }
        // the loop variable is the lane offset, alone
        const ArgRange& off = args[want - 1];
        if (off.first != off.last || v.text(off.first) != var) safe = false;
        for (std::size_t a = 0; a + 1 < want; ++a)
          for (std::size_t j = args[a].first; j <= args[a].last; ++j)
            if (v.text(j) == var) safe = false;
        continue;
      }
      if (v.is_identifier(i) && v.text(i) == var && !v.is_member_name(i)) {
        // any use outside a shuffle's offset argument
        bool in_shuffle_offset = v.is(i + 1, ")") && i > 0 && v.is(i - 1, ",");
        if (!in_shuffle_offset) safe = false;
      }
    }
    if (!shuffles) continue;
    bool fixed = false;
    if (opt.apply_fixes && safe && !file.excluded(hit)) fixed = file.replace(hit, hit, "warpSize / 2");
    report(file, Diag::ShuffleLoop32, hit,
           "shuffle reduction over 32 lanes ('" + std::string(file.span_text(ci + 2, close - 1)) +
               "'); " + prof_why(p) + ", so lanes 32.." + std::to_string(p.wave_size - 1) +
               " are never combined with lanes 0..31",
           fixed ? "fixed (--fix): the loop starts at warpSize / 2 (16 on NVIDIA, 32 on wave64)"
           : halving
               ? "start the loop at warpSize / 2" +
                     std::string(safe ? " ('ferry analyze --fix' can do it)"
                                      : " and check the shuffle masks and widths: not fixed "
                                        "automatically because a shuffle in the loop has a "
                                        "partial mask, a width, or uses the offset otherwise")
               : "bound the loop by warpSize (" + var + " < warpSize)",
           fixed);
  }
}

// ----- FRY2206 -------------------------------------------------------------------------------

void check_full_masks(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t ci = 0; ci + 1 < v.code_size(); ++ci) {
    if (!v.is_identifier(ci) || !v.is(ci + 1, "(") || v.in_directive(ci)) continue;
    const std::string_view name = v.text(ci);
    if (std::find(kWarpSyncFunctions.begin(), kWarpSyncFunctions.end(), name) == kWarpSyncFunctions.end())
      continue;
    const auto args = file.call_args(ci + 1);
    if (args.empty() || args[0].empty()) continue;
    const FunctionInfo* scope = nullptr;
    const std::size_t fi = facts.function_at(ci);
    if (fi != npos) scope = &facts.functions[fi];
    const auto m = eval(v, facts, args[0].first, args[0].last, scope);
    if (!m || (*m != 0xffffffffLL && *m != -1)) continue;
    const std::string text(file.span_text(args[0].first, args[0].last));
    report(file, Diag::FullMask32, args[0].first,
           "32-bit full mask '" + text + "' passed to " + std::string(name) + "; " + prof_why(p) +
               ": the mask names lanes 0..31 only, and a full-wavefront mask is 64 bits wide",
           "pass a mask of every lane of the wavefront: __activemask(), or 0xffffffffffffffffull "
           "(~0ull) under __HIP_PLATFORM_AMD__");
  }
}

// ----- FRY2207 FRY2208 -----------------------------------------------------------------------

void check_ballot_width(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
      if (!v.is_identifier(i) || !v.is(i + 1, "(")) continue;
      const std::string_view name = v.text(i);
      if (is_ballot_call_name(name)) {
        // FRY2207: T var = __ballot...(...) with a 32-bit T
        std::size_t k = i;
        if (k < 2 || !v.is(k - 1, "=") || !v.is_identifier(k - 2)) continue;
        const std::size_t var = k - 2;
        std::vector<std::string_view> words;
        std::size_t w = var;
        while (w > fn.body_open + 1 && (v.is_identifier(w - 1) || v.is(w - 1, "::"))) {
          --w;
          if (v.is_identifier(w)) words.push_back(v.text(w));
        }
        if (words.empty()) continue;
        std::reverse(words.begin(), words.end());
        std::vector<std::string_view> type;
        for (std::string_view s : words)
          if (!is_one_of(s, {"const", "volatile", "register", "static", "std"})) type.push_back(s);
        if (type.empty() || type[0] == "auto") continue;
        const bool unsigned_int = type.size() == 2 && type[0] == "unsigned" && type[1] == "int";
        const bool b32 = unsigned_int || (type.size() == 1 && is_one_of(type[0], {"unsigned", "int", "uint32_t", "uint", "int32_t"}));
        if (!b32) continue;
        std::string tname;
        for (std::string_view s : type) tname += (tname.empty() ? "" : " ") + std::string(s);
        report(file, Diag::BallotResult32, var,
               "the result of " + std::string(name) + " is stored in 32-bit '" + tname + " " +
                   std::string(v.text(var)) + "'; " + prof_why(p) +
                   " and the ballot is 64 bits wide, so lanes 32.." + std::to_string(p.wave_size - 1) +
                   " are dropped",
               "declare it unsigned long long (uint64_t) and count it with __popcll");
        continue;
      }
      std::string wide;
      if (name == "__popc") wide = "__popcll";
      else if (name == "__ffs") wide = "__ffsll";
      else if (name == "__clz") wide = "__clzll";
      else if (name == "__brev") wide = "__brevll";
      else continue;
      const std::size_t close = v.partner(i + 1);
      if (close == npos) continue;
      const unsigned t = range_taint(v, facts, facts.functions[fi].defs, i + 2, close - 1);
      if (!(t & kBallot)) continue;
      report(file, Diag::BallotPopc32, i,
             std::string(name) + "(" + std::string(file.span_text(i + 2, close - 1)) +
                 ") reads a ballot mask with a 32-bit bit operation; " + prof_why(p) +
                 ", so lanes 32.." + std::to_string(p.wave_size - 1) + " are not counted",
             "use " + wide + " on a 64-bit (unsigned long long) mask");
    }
  }
}

// ----- shared array declarations (FRY2209, FRY3201) -------------------------------------------

namespace {

struct SharedArray {
  std::string name;
  std::size_t name_ci;
  std::size_t decl_ci;  // the __shared__ token
  unsigned elem_size;   // 0 if unknown
  std::vector<std::pair<std::size_t, std::size_t>> extents;  // code ranges
  std::optional<long long> elements;  // product of the extents, when constant
  bool per_warp_32 = false;  // an extent is 32 or divides by 32 (a literal)
};

std::vector<SharedArray> shared_arrays(const CodeView& v, const FileFacts& facts, std::size_t first, std::size_t last,
                                       const FunctionInfo* scope) {
  std::vector<SharedArray> out;
  for (std::size_t i = first; i <= last && i < v.code_size(); ++i) {
    if (!v.is(i, "__shared__") || v.in_directive(i)) continue;
    if (i > 0 && v.is(i - 1, "extern")) continue;
    std::size_t j = i + 1;
    std::vector<std::string_view> words;
    while (v.is_identifier(j) || v.is(j, "::")) {
      if (v.is_identifier(j)) {
        if (is_one_of(v.text(j), {"__align__", "alignas"}) && v.is(j + 1, "(")) {
          j = v.partner(j + 1) + 1;
          continue;
        }
        if (v.text(j) == "extern") break;
        words.push_back(v.text(j));
      }
      ++j;
    }
    if (words.size() < 2) continue;
    // words = type words + the first declarator's name; more declarators after commas
    std::size_t name_ci = j - 1;
    words.pop_back();
    const unsigned esize = lex::type_size(words);
    while (true) {
      SharedArray a{std::string(v.text(name_ci)), name_ci, i, esize, {}, 1, false};
      std::size_t k = name_ci + 1;
      while (v.is(k, "[")) {
        const std::size_t close = v.partner(k);
        if (close == npos) break;
        a.extents.push_back({k + 1, close - 1});
        for (std::size_t q = k + 1; q < close; ++q)
          if (v.is_number(q) && parse_int(v.text(q)) == 32) a.per_warp_32 = true;
        const auto e = eval(v, facts, k + 1, close - 1, scope);
        if (e && a.elements) a.elements = *a.elements * *e;
        else a.elements = std::nullopt;
        k = close + 1;
      }
      out.push_back(a);
      // skip an initializer, then another declarator?
      while (k < v.code_size() && !v.is(k, ",") && !v.is(k, ";")) {
        if (v.partner(k) != npos && (v.is(k, "(") || v.is(k, "{"))) k = v.partner(k);
        ++k;
      }
      if (v.is(k, ",") && v.is_identifier(k + 1)) {
        name_ci = k + 1;
        continue;
      }
      break;
    }
  }
  return out;
}

}  // namespace

void check_per_warp_shared(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (std::size_t fi = 0; fi < facts.functions.size(); ++fi) {
    const FunctionInfo& fn = facts.functions[fi];
    for (const SharedArray& a : shared_arrays(v, facts, fn.body_open + 1, fn.body_close - 1, &fn)) {
      if (!a.per_warp_32) continue;
      // subscripted by a lane id or warp index?
      std::size_t use = npos;
      for (std::size_t i = fn.body_open + 1; i < fn.body_close && use == npos; ++i) {
        if (i == a.name_ci || !v.is_identifier(i) || v.text(i) != a.name || !v.is(i + 1, "[")) continue;
        const std::size_t close = v.partner(i + 1);
        if (close == npos) continue;
        if (range_taint(v, facts, facts.functions[fi].defs, i + 2, close - 1) & kLane) use = i;
      }
      if (use == npos) continue;
      report(file, Diag::PerWarpShared32, a.name_ci,
             "__shared__ '" + a.name + "' is sized for 32-lane warps and indexed by a lane id or "
                 "warp index (line " + std::to_string(file.code(use).line) + "); " + prof_why(p) +
                 ": one slot per 32-lane warp no longer matches the wavefronts, and a lane id "
                 "(0.." + std::to_string(p.wave_size - 1) + ") overruns 32 slots",
             "size it from the wavefront width (e.g. [1024 / WAVE] with WAVE = " +
                 std::to_string(p.wave_size) + " on " + p.name +
                 ", a per-target constant) and index it with threadIdx.x / warpSize or "
                 "threadIdx.x % warpSize");
    }
  }
}

// ----- FRY3201 -------------------------------------------------------------------------------

void check_static_lds(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  for (const FunctionInfo& fn : facts.functions) {
    if (!fn.is_kernel) continue;
    long long total = 0;
    const SharedArray* largest = nullptr;
    long long largest_bytes = 0;
    const auto arrays = shared_arrays(v, facts, fn.body_open + 1, fn.body_close - 1, &fn);
    for (const SharedArray& a : arrays) {
      if (a.elem_size == 0 || !a.elements) continue;  // unknown: a template type or size
      const long long b = *a.elements * a.elem_size;
      total += b;
      if (b > largest_bytes) largest_bytes = b, largest = &a;
    }
    if (total <= p.lds_static_bytes || !largest) continue;
    const long long over = total - p.lds_static_bytes;
    const long long keep = std::max(0LL, (largest_bytes - over) / largest->elem_size);
    report(file, Diag::StaticLdsLimit, fn.name_ci,
           "kernel '" + fn.name + "' declares " + bytes_str(total) + " of static __shared__ memory; " +
               p.name + " gives a block at most " + bytes_str(p.lds_static_bytes) +
               ", so the kernel does not compile (or launch) for it",
           "cut " + bytes_str(over) + ": e.g. shrink '" + largest->name + "' from " +
               std::to_string(*largest->elements) + " to at most " + std::to_string(keep) +
               " elements (a smaller tile, more blocks), or move the rest to global memory");
  }
}

// ----- FRY3202 FRY3203 -----------------------------------------------------------------------

namespace {

// The launch arguments between <<< and >>> at `open`.
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

// Dimensions of a dim3 written as `dim3(a, b, c)`, `dim3{a, b}` or `{a, b}` at `first`.
std::optional<std::vector<long long>> dim3_dims(const CodeView& v, const FileFacts& facts, std::size_t open,
                                                const FunctionInfo* scope) {
  if (!(v.is(open, "(") || v.is(open, "{"))) return std::nullopt;
  const std::size_t close = v.partner(open);
  if (close == npos) return std::nullopt;
  std::vector<long long> dims;
  std::size_t start = open + 1;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i < close && (v.is(i, "(") || v.is(i, "["))) {
      i = v.partner(i);
      continue;
    }
    if (i == close || v.is(i, ",")) {
      const auto d = eval(v, facts, start, i - 1, scope);
      if (!d) return std::nullopt;
      dims.push_back(*d);
      start = i + 1;
    }
  }
  return dims;
}

std::string dims_str(const std::vector<long long>& d) {
  std::string s;
  for (long long x : d) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// Halves the largest dimension until the product fits.
std::vector<long long> shrink_dims(std::vector<long long> d, long long limit) {
  auto product = [&] {
    long long p = 1;
    for (long long x : d) p *= x;
    return p;
  };
  while (product() > limit) {
    auto it = std::max_element(d.begin(), d.end());
    if (*it <= 1) break;
    *it = (*it + 1) / 2;
  }
  return d;
}

}  // namespace

void check_block_size(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  const long long max = p.max_threads_per_block;
  for (const FunctionInfo& fn : facts.functions) {
    if (fn.launch_bounds && *fn.launch_bounds > max)
      report(file, Diag::LaunchBoundsLimit, fn.launch_bounds_ci,
             "__launch_bounds__(" + std::to_string(*fn.launch_bounds) + ") on '" + fn.name +
                 "' exceeds the " + std::to_string(max) + " threads per block of " + p.name,
             "use __launch_bounds__(" + std::to_string(max) + ") and launch at most " +
                 std::to_string(max) + " threads per block (more blocks instead)");
  }
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (v.code(ci).kind != lex::Kind::LaunchOpen) continue;
    const auto args = launch_args(v, ci);
    if (args.size() < 2 || args[1].empty()) continue;
    const std::size_t fi = facts.function_at(ci);
    const FunctionInfo* scope = fi == npos ? nullptr : &facts.functions[fi];
    const ArgRange b = args[1];
    std::optional<std::vector<long long>> dims;
    std::size_t where = b.first;
    if (v.is(b.first, "dim3") && v.partner(b.first + 1) == b.last) {
      dims = dim3_dims(v, facts, b.first + 1, scope);
    } else if (v.is(b.first, "{") && v.partner(b.first) == b.last) {
      dims = dim3_dims(v, facts, b.first, scope);
    } else if (b.first == b.last && v.is_identifier(b.first) && scope) {
      // a dim3 variable of this function: dim3 name(a, b) / dim3 name{a, b} / dim3 name = dim3(...)
      for (std::size_t i = scope->body_open + 1; i < ci; ++i) {
        if (!v.is(i, "dim3") || v.text(i + 1) != v.text(b.first)) continue;
        std::size_t open = i + 2;
        if (v.is(open, "=") && v.is(open + 1, "dim3")) open += 2;
        dims = dim3_dims(v, facts, open, scope);
        where = i + 1;
      }
      if (!dims) {
        const auto n = eval(v, facts, b.first, b.last, scope);
        if (n) dims = std::vector<long long>{*n};
      }
    } else {
      const auto n = eval(v, facts, b.first, b.last, scope);
      if (n) dims = std::vector<long long>{*n};
    }
    if (!dims || dims->empty()) continue;
    long long threads = 1;
    for (long long d : *dims) threads *= d;
    if (threads <= max) continue;
    const auto smaller = shrink_dims(*dims, max);
    long long sm = 1;
    for (long long d : smaller) sm *= d;
    const long long factor = (threads + sm - 1) / sm;
    const std::string kernel = ci > 0 ? std::string(v.text(ci - 1)) : std::string("kernel");
    report(file, Diag::BlockSizeLimit, where,
           "launch of '" + kernel + "' with " + std::to_string(threads) + " threads per block (" +
               dims_str(*dims) + "); " + p.name + " allows at most " + std::to_string(max),
           "launch " + (smaller.size() == 1 ? std::to_string(sm) : "dim3(" + dims_str(smaller) + ")") +
               " threads per block and " + std::to_string(factor) +
               "x as many blocks (index with blockIdx so each block does 1/" +
               std::to_string(factor) + " of the work)");
  }
}

// ----- FRY3204 -------------------------------------------------------------------------------

void check_dynamic_lds(FileMigration& file, const FileFacts& facts, const HazardOptions& opt) {
  const CodeView& v = file;
  const Profile& p = *opt.profile;
  auto flag = [&](std::size_t at, long long bytes, const std::string& what) {
    const long long floats = p.lds_max_bytes / 4;
    report(file, Diag::DynamicLdsLimit, at,
           what + " asks for " + bytes_str(bytes) + " of dynamic shared memory; " + p.name +
               " gives a block at most " + bytes_str(p.lds_max_bytes) +
               ", so the launch fails",
           "stage at most " + bytes_str(p.lds_max_bytes) + " (" + std::to_string(floats) +
               " floats) per block: tile the data (a loop over chunks of that size) or keep it in "
               "global memory");
  };
  auto scope_at = [&](std::size_t ci) -> const FunctionInfo* {
    const std::size_t fi = facts.function_at(ci);
    return fi == npos ? nullptr : &facts.functions[fi];
  };
  for (std::size_t ci = 0; ci < v.code_size(); ++ci) {
    if (v.code(ci).kind == lex::Kind::LaunchOpen) {
      const FunctionInfo* scope = scope_at(ci);
      const auto args = launch_args(v, ci);
      if (args.size() < 3 || args[2].empty()) continue;
      const auto n = eval(v, facts, args[2].first, args[2].last, scope);
      if (n && *n > p.lds_max_bytes)
        flag(args[2].first, *n, "launch of '" + std::string(ci > 0 ? v.text(ci - 1) : "") + "'");
      continue;
    }
    if (!v.is_identifier(ci) || !v.is(ci + 1, "(")) continue;
    if (!is_one_of(v.text(ci), {"cudaFuncSetAttribute", "hipFuncSetAttribute"})) continue;
    const auto args = file.call_args(ci + 1);
    if (args.size() != 3 || args[1].empty() || args[2].empty()) continue;
    bool dyn = false;
    for (std::size_t i = args[1].first; i <= args[1].last; ++i)
      if (is_one_of(v.text(i), {"cudaFuncAttributeMaxDynamicSharedMemorySize",
                              "hipFuncAttributeMaxDynamicSharedMemorySize"}))
        dyn = true;
    if (!dyn) continue;
    const auto n = eval(v, facts, args[2].first, args[2].last, scope_at(ci));
    if (n && *n > p.lds_max_bytes) flag(args[2].first, *n, std::string(v.text(ci)));
  }
}

// ----- all -----------------------------------------------------------------------------------

void check_all(FileMigration& file, const HazardOptions& opt,
               const std::map<std::string, long long>* project_constants) {
  const FileFacts facts = collect_facts(file, project_constants);
  if (wave64_checks_apply(*opt.profile)) {
    check_warp_constants(file, facts, opt);
    check_shuffle_loops(file, facts, opt);
    check_lane_arithmetic(file, facts, opt);
    if (opt.intrinsic_checks) {
      check_full_masks(file, facts, opt);
      check_ballot_width(file, facts, opt);
    }
    check_per_warp_shared(file, facts, opt);
  }
  check_static_lds(file, facts, opt);
  check_block_size(file, facts, opt);
  check_dynamic_lds(file, facts, opt);
}

void hazard_pass(FileMigration& file) {
  static const Profile* const kDefault = find_profile("gfx906");
  if (!kDefault) return;
  HazardOptions opt;
  opt.profile = kDefault;
  opt.intrinsic_checks = false;  // the HIP warp-intrinsics pass rewrites and reports those calls
  check_all(file, opt);
}

}  // namespace ferry::analysis
