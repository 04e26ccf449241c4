#include "analysis/taint.h"

#include <algorithm>
#include <string>

#include "analysis/names.h"
#include "analysis/tokens.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

bool is_warp_const(const FileFacts& facts, std::string_view name) {
  if (!is_warp_width_name(name)) return false;
  const auto it = facts.constants.find(std::string(name));
  if (it != facts.constants.end()) return it->second.value == 32 || it->second.value == 64;
  const long long* p = facts.project_constant(std::string(name));
  return p && (*p == 32 || *p == 64);
}

// Taint of the variable `name` at code index `at` in function `fn`: the latest definition before.
// `defs` are in code order (function_defs), so that one is the first from the back before `at`.
unsigned var_taint(const std::vector<VarDef>& defs, std::string_view name, std::size_t at) {
  const auto before = std::partition_point(defs.begin(), defs.end(), [at](const VarDef& d) { return d.at < at; });
  for (auto it = before; it != defs.begin();)
    if (const VarDef& d = *--it; d.name == name) return d.taint;
  return kNone;
}

// Taint of code range [first, last] in function `fi`.
unsigned range_taint(const CodeView& v, const FileFacts& facts, const std::vector<VarDef>& defs, std::size_t first,
                     std::size_t last) {
  unsigned t = kNone;
  bool data_index = false;
  bool warp_op = false;
  for (std::size_t i = first; i <= last && i < v.code_size(); ++i) {
    const std::string_view s = v.text(i);
    if (v.is_identifier(i)) {
      if (v.is_member_name(i)) continue;
      const bool call = v.is(i + 1, "(");
      if (s == "threadIdx" || s == "blockDim" || s == "hipThreadIdx_x" || s == "hipBlockDim_x") t |= kThread;
      else if (s == "blockIdx" || s == "gridDim") data_index = true;
      else if (s == "__lane_id" || s == "__lanemask_lt" ||
               (call && !facts.lane_helpers.empty() && facts.lane_helpers.count(std::string(s))))
        t |= kThread | kLane;
      else if (call && !facts.thread_helpers.empty() && facts.thread_helpers.count(std::string(s))) t |= kThread;
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

// The identifiers that start a taint in range_taint: threadIdx, blockDim, hipThreadIdx_x,
// hipBlockDim_x, __lane_id, __lanemask_lt and the ballot call names (is_ballot_call_name). Keep in
// step with range_taint. (Lane and thread helpers are not sources of their own: a function becomes
// one only when its return value is tainted by one of these.)
bool has_taint_source(const CodeView& v) {
  return mentions_any(v, {"threadIdx", "blockDim", "hipThreadIdx_x", "hipBlockDim_x", "__lane_id", "__lanemask_lt",
                          "__ballot_sync", "__ballot", "__activemask"});
}

// All `name = expr` definitions in a function body (declarations and plain assignments).
std::vector<VarDef> function_defs(const CodeView& v, const FileFacts& facts, const FunctionInfo& fn) {
  std::vector<VarDef> defs;
  for (std::size_t i = fn.body_open + 1; i < fn.body_close; ++i) {
    if (!v.is(i, "=") || !v.is_identifier(i - 1) || v.is_member_name(i - 1)) continue;
    const std::size_t last = expression_last(v, i + 1, fn.body_close - 1);
    VarDef d{std::string(v.text(i - 1)), i, kNone};
    d.taint = range_taint(v, facts, defs, i + 1, last);
    defs.push_back(std::move(d));
  }
  return defs;
}

}  // namespace ferry::analysis
