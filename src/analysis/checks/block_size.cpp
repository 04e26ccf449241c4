// FRY3202 FRY3203: __launch_bounds__ and launch block sizes above the threads per block.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/names.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

namespace {

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
      report(file, opt, Diag::LaunchBoundsLimit, fn.launch_bounds_ci,
             "__launch_bounds__(" + std::to_string(*fn.launch_bounds) + ") on '" + fn.name + "' exceeds the " +
                 std::to_string(max) + " threads per block of " + p.name,
             "use __launch_bounds__(" + std::to_string(max) + ") and launch at most " + std::to_string(max) +
                 " threads per block (more blocks instead)");
  }
  for (const std::size_t ci : launch_opens(v)) {
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
      for (const std::size_t i : occurrences_in(v.occurrences("dim3"), scope->body_open + 1, ci)) {
        if (v.text(i + 1) != v.text(b.first)) continue;
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
    report(file, opt, Diag::BlockSizeLimit, where,
           "launch of '" + kernel + "' with " + std::to_string(threads) + " threads per block (" + dims_str(*dims) +
               "); " + p.name + " allows at most " + std::to_string(max),
           "launch " + (smaller.size() == 1 ? std::to_string(sm) : "dim3(" + dims_str(smaller) + ")") +
               " threads per block and " + std::to_string(factor) +
               "x as many blocks (index with blockIdx so each block does 1/" + std::to_string(factor) +
               " of the work)");
  }
}

}  // namespace ferry::analysis
