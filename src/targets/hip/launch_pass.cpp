// Kernel launches under --launch=ggl: `k<<<g, b[, shm[, stream]]>>>(args)` →
// `hipLaunchKernelGGL(k, g, b, shm|0, stream|0, args)`. A kernel with template arguments is
// wrapped in HIP_KERNEL_NAME(...), since the preprocessor would split `k<T, N>` at its comma.
// Only the glue between the pieces is edited, so renames inside the launch parameters and the
// arguments (streams, symbols) still apply. The default (--launch=chevron) keeps `<<<>>>`,
// which hipcc accepts as is, except a braced grid or block (below), in both forms.
#include <string>
#include <vector>

#include "analysis/names.h"
#include "analysis/tokens.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
using migrate::FileMigration;
using migrate::npos;

namespace {

// nvcc takes a braced list for the grid or block of a launch (`k<<<g, {32, 8, 1}>>>`: a dim3
// initialised from it); clang's parser wants an expression there ("expected expression"), in
// both launch forms. The list becomes `dim3(...)`, which is what nvcc built from it (parentheses,
// not braces: `dim3{n, 1}` with an int `n` would be a narrowing error). Seen in NVIDIA's
// multi-gpu-programming-models (golden hip-dialect-launch-braced-dims).
void braced_launch_dims(FileMigration& f) {
  for (const std::size_t ci : analysis::detail::launch_opens(f)) {
    if (ci == 0 || f.excluded(ci) || f.code(ci).in_directive) continue;
    const std::vector<migrate::ArgRange> params = analysis::launch_args(f, ci);
    if (params.empty()) continue;
    const std::size_t close = params.back().last + 1;
    // The first two parameters (grid, block): a parameter that is one braced list, no nested braces.
    for (std::size_t p = 0; p < 2 && p < params.size(); ++p) {
      const std::size_t first = params[p].first;
      if (first >= close || !f.is(first, "{")) continue;
      const std::size_t rbrace = f.match_bracket(first);
      bool nested = false;
      for (std::size_t i = first + 1; rbrace != npos && i < rbrace; ++i) nested = nested || f.is(i, "{");
      if (rbrace != npos && !nested && (rbrace + 1 == close || f.is(rbrace + 1, ",")) && !f.touched(first) &&
          !f.touched(rbrace) && f.replace_bytes(f.code(first).begin, f.code(first).end, "dim3(")) {
        f.replace_bytes(f.code(rbrace).begin, f.code(rbrace).end, ")");
        f.count_converted("dialect");
      }
    }
  }
}

}  // namespace

void launch_pass(FileMigration& f) {
  braced_launch_dims(f);
  if (f.target().option("launch") != "ggl") return;
  for (const std::size_t ci : analysis::detail::launch_opens(f)) {
    if (ci == 0 || f.excluded(ci)) continue;
    const std::vector<migrate::ArgRange> launch = analysis::launch_args(f, ci);
    if (launch.empty()) continue;
    const std::size_t close = launch.back().last + 1;
    if (close == ci + 1 || !f.is(close + 1, "(")) continue;
    const std::size_t args_close = f.match_bracket(close + 1);
    if (args_close == npos) continue;
    bool templated = false;
    const std::size_t start = launch_kernel_start(f, ci - 1, templated);
    if (start == npos) continue;

    const std::size_t params = launch.size();
    if (params < 2 || params > 4) continue;
    const bool has_args = args_close > close + 2;

    const std::string head = templated ? "hipLaunchKernelGGL(HIP_KERNEL_NAME(" : "hipLaunchKernelGGL(";
    std::string mid = templated ? "), " : ", ";
    std::string tail = params == 2 ? ", 0, 0" : params == 3 ? ", 0" : "";
    // Edits: before the kernel; "<<<" (and the space around it); ">>>(" up to the first argument.
    const std::uint32_t k_end = f.code(ci - 1).end;
    const std::uint32_t p_begin = f.code(ci + 1).begin;
    const std::uint32_t p_end = f.code(close - 1).end;
    const std::uint32_t a_begin = has_args ? f.code(close + 2).begin : f.code(args_close).begin;
    if (f.edits().overlaps(k_end, p_begin) || f.edits().overlaps(p_end, a_begin) ||
        f.edits().overlaps(f.code(start).begin, f.code(start).begin))
      continue;
    if (!f.insert_before(start, head)) continue;
    f.replace_bytes(k_end, p_begin, std::move(mid));
    f.replace_bytes(p_end, a_begin, tail + (has_args ? ", " : ""));
    f.count_converted("runtime");
  }
}

}  // namespace ferry::targets::hip
