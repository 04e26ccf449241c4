// FRY3201: static __shared__ memory above the LDS per block.
// Docs: docs/diagnostics.md; registered in the check table of analysis/hazards.cpp.
#include "analysis/checks/checks.h"

#include <algorithm>
#include <string>

#include "analysis/checks/shared_arrays.h"
#include "analysis/const_eval.h"
#include "analysis/taint.h"
#include "analysis/tokens.h"
#include "lex/const_expr.h"

namespace ferry::analysis {

using namespace detail;  // NOLINT: the shared token helpers of src/analysis/

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
    report(file, opt, Diag::StaticLdsLimit, fn.name_ci,
           "kernel '" + fn.name + "' declares " + bytes_str(total) + " of static __shared__ memory; " + p.name +
               " gives a block at most " + bytes_str(p.lds_static_bytes) +
               ", so the kernel does not compile (or launch) for it",
           "cut " + bytes_str(over) + ": e.g. shrink '" + largest->name + "' from " +
               std::to_string(*largest->elements) + " to at most " + std::to_string(keep) +
               " elements (a smaller tile, more blocks), or move the rest to global memory");
  }
}

}  // namespace ferry::analysis
