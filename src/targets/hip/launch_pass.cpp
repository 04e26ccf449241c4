// Kernel launches under --launch=ggl: `k<<<g, b[, shm[, stream]]>>>(args)` →
// `hipLaunchKernelGGL(k, g, b, shm|0, stream|0, args)`. A kernel with template arguments is
// wrapped in HIP_KERNEL_NAME(...), since the preprocessor would split `k<T, N>` at its comma.
// Only the glue between the pieces is edited, so renames inside the launch parameters and the
// arguments (streams, symbols) still apply. The default (--launch=chevron) keeps `<<<>>>`,
// which hipcc accepts as is.
#include <string>
#include <vector>

#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
using migrate::FileMigration;
using migrate::npos;

void launch_pass(FileMigration& f) {
  if (f.target().option("launch") != "ggl") return;
  for (std::size_t ci = 1; ci < f.code_size(); ++ci) {
    if (f.code(ci).kind != lex::Kind::LaunchOpen || f.excluded(ci)) continue;
    // The matching >>>.
    std::size_t close = npos;
    int depth = 0;
    for (std::size_t i = ci + 1; i < f.code_size(); ++i) {
      const lex::Token& t = f.code(i);
      if (t.kind == lex::Kind::LaunchClose) {
        if (depth == 0) {
          close = i;
          break;
        }
      } else if (f.is(i, "(") || f.is(i, "[") || f.is(i, "{")) {
        ++depth;
      } else if (f.is(i, ")") || f.is(i, "]") || f.is(i, "}")) {
        if (--depth < 0) break;
      }
    }
    if (close == npos || close == ci + 1 || !f.is(close + 1, "(")) continue;
    const std::size_t args_close = f.match_bracket(close + 1);
    if (args_close == npos) continue;
    bool templated = false;
    const std::size_t start = launch_kernel_start(f, ci - 1, templated);
    if (start == npos) continue;

    // Launch parameters: top-level commas between <<< and >>>.
    std::size_t params = 1;
    depth = 0;
    for (std::size_t i = ci + 1; i < close; ++i) {
      if (f.is(i, "(") || f.is(i, "[") || f.is(i, "{")) ++depth;
      else if (f.is(i, ")") || f.is(i, "]") || f.is(i, "}")) --depth;
      else if (depth == 0 && f.is(i, ",")) ++params;
    }
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
