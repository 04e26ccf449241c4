#include <set>
#include <string>
#include <vector>

#include "analysis/tokens.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {

using migrate::ArgRange;
using migrate::npos;

namespace {

// Kernels written for HIP before 1.0 take `hipLaunchParm lp` first, and hipLaunchKernel passed it:
// the parameter is dropped (FRY1246); the names of those kernels are returned, so that their
// `hipLaunchKernel(k, grid, block, shm, stream, args...)` launches (not HIP's runtime function of
// that name, which is cudaLaunchKernel's twin) are converted like hipLaunchKernelGGL.
std::set<std::string, std::less<>> drop_launch_parm(migrate::FileMigration& file) {
  std::set<std::string, std::less<>> kernels;
  for (std::size_t ci = 2; ci + 1 < file.code_size(); ++ci) {
    if (!file.is(ci, "hipLaunchParm") || !file.is(ci - 1, "(") || !file.is_identifier(ci - 2)) continue;
    if (file.excluded(ci) || file.touched(ci) || file.in_directive(ci)) continue;
    std::size_t end = ci + 1;  // the token after the parameter
    if (file.is_identifier(end)) ++end;
    std::uint32_t to = 0;
    if (file.is(end, ",")) to = file.code(end + 1).begin;
    else if (file.is(end, ")")) to = file.code(end).begin;
    else continue;
    if (!file.replace_bytes(file.code(ci).begin, to, "")) continue;
    kernels.emplace(file.text(ci - 2));
    file.diag(Diag::LaunchParmDroppedCuda, ci,
              "'hipLaunchParm' (HIP before 1.0: the parameter hipLaunchKernel passed) removed from '" +
                  std::string(file.text(ci - 2)) + "'; its hipLaunchKernel launches become <<<...>>>",
              "nothing to do");
  }
  return kernels;
}

}  // namespace

void launch_pass(migrate::FileMigration& file) {
  const auto legacy = drop_launch_parm(file);
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    const bool ggl = file.is(ci, "hipLaunchKernelGGL");
    if (!(ggl || (!legacy.empty() && file.is(ci, "hipLaunchKernel"))) || !file.is(ci + 1, "(")) continue;
    if (file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci)) continue;
    if (!ggl) {
      // hipLaunchKernel(k, ...) of a kernel that took hipLaunchParm; HIP_KERNEL_NAME(k<T>) too.
      std::size_t k = ci + 2;
      if (file.is(k, "HIP_KERNEL_NAME") && file.is(k + 1, "(")) k += 2;
      if (!file.is_identifier(k) || !legacy.contains(file.text(k))) continue;
    }
    const std::size_t open = ci + 1;
    const std::size_t close = file.match_bracket(open);
    std::vector<ArgRange> args = file.call_args(open);
    // `hipLaunchKernelGGL(kernel<B, W, N>, grid, ...)`: with HIP_TEMPLATE_KERNEL_LAUNCH the launch
    // is a function template, and the commas of the kernel's template arguments are C++'s; join
    // the pieces of the split kernel name until its `<` is closed.
    if (args.size() > 1 && file.is_identifier(args[0].first) && file.is(args[0].first + 1, "<")) {
      auto angle = [&](const ArgRange& a) {  // the piece's angle depth at its end
        return analysis::walk_top_level(file, a.first, a.last, [](std::size_t, int) { return true; });
      };
      int depth = angle(args[0]);
      std::size_t joined = 1;
      while (depth > 0 && joined < args.size()) depth += angle(args[joined++]);
      if (depth == 0 && joined > 1) {
        args[0].last = args[joined - 1].last;
        args.erase(args.begin() + 1, args.begin() + static_cast<long>(joined));
      }
    }
    if (close == npos || args.size() < 5) {
      file.diag(Diag::GglTooFewArgs, ci,
                std::string(file.text(ci)) +
                    " needs at least 5 arguments (kernel, grid, block, shared memory, "
                    "stream); left unchanged",
                "write the launch as kernel<<<grid, block, shm, stream>>>(args...)");
      continue;
    }
    bool empty = false;
    for (const ArgRange& a : args) empty = empty || a.empty();
    if (empty) continue;
    // The kernel: unwrap HIP_KERNEL_NAME(k<T>) and (k<T>).
    ArgRange k = args[0];
    if (file.is(k.first, "HIP_KERNEL_NAME") && file.is(k.first + 1, "(") && file.match_bracket(k.first + 1) == k.last &&
        k.last > k.first + 2) {
      k = {k.first + 2, k.last - 1};
    } else if (file.is(k.first, "(") && file.match_bracket(k.first) == k.last && k.last > k.first + 1) {
      k = {k.first + 1, k.last - 1};
    }
    auto begin = [&](std::size_t i) { return file.code(i).begin; };
    auto end = [&](std::size_t i) { return file.code(i).end; };
    std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::string>> glue;
    glue.push_back({{begin(ci), begin(k.first)}, ""});
    glue.push_back({{end(k.last), begin(args[1].first)}, "<<<"});
    if (args.size() > 5) {
      glue.push_back({{end(args[4].last), begin(args[5].first)}, ">>>("});
    } else {
      glue.push_back({{end(args[4].last), end(close)}, ">>>()"});
    }
    bool free = true;
    for (const auto& [range, text] : glue) free = free && !file.edits().overlaps(range.first, range.second);
    if (!free) continue;
    for (auto& [range, text] : glue) file.replace_bytes(range.first, range.second, std::move(text));
    file.count_converted("launch");
  }
}

}  // namespace ferry::targets::cuda
