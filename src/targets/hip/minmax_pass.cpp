// CUDA's integer min()/max() for a release whose HIP lacks them.
//
// CUDA's math API overloads min and max for every integer type and their mixes with int
// (min(unsigned, unsigned), min(int, unsigned), long, long long, ...) and for float/double mixes.
// HIP 5.2 (clang 15's __clang_hip_math.h) has min(int, int), min(float, float) and
// min(double, double) only, so `min(rem, blockDim.x)` with an unsigned `rem` is ambiguous there
// (cuda-samples' eigenvalues), and a 64-bit argument is silently narrowed to int. A file that
// calls an unqualified min or max gets Ferry's compat header ferry/compat/minmax.h (templates that
// lose to any exact overload HIP has: safe with every release). C files are left alone. A
// project that #defines min or max somewhere still gets the header where a file calls them: the
// header sets such macros aside while it defines its templates, and a file whose calls expand to
// the project's macro is not hurt by it (before, one such macro anywhere in the tree kept the
// header from every file: cuda-samples' eigenvalues stayed ambiguous).
#include <string>

#include "lex/ferry_marks.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

void minmax_pass(migrate::FileMigration& file, bool release_lacks_minmax) {
  if (!release_lacks_minmax) return;
  // The way back of HIP -> CUDA -> HIP: the calls are the HIP original's, which compiled as written.
  if (file.project().migrated_by == "cuda" || lex::source_mentions(file, rewrite::record::to_hip::kMark)) return;
  const std::string_view path = file.path();
  if (path.ends_with(".c") || path.ends_with(".C")) return;
  for (std::size_t ci = 1; ci + 1 < file.code_size(); ++ci) {
    if (!(file.is(ci, "min") || file.is(ci, "max")) || !file.is(ci + 1, "(") || file.excluded(ci)) continue;
    // A call of the global function: not a member (`.min(`), qualified (`std::min(`) or declared.
    const std::string_view prev = file.text(ci - 1);
    if (prev == "." || prev == "->" || prev == "::" || prev == "~" || is_declared_name(file, ci)) continue;
    if (file.code(ci - 1).kind == lex::Kind::Identifier && !is_expression_keyword(prev)) continue;
    file.require_compat("minmax", std::string(file.text(ci)) + "() on unsigned or 64-bit integers", ci);
    return;
  }
}

}  // namespace ferry::targets::hip
