// CUDA dynamic parallelism (the device runtime): a kernel launched with `<<<...>>>` from a
// __global__ or __device__ function, and the runtime API called there (cudaMalloc,
// cudaDeviceSynchronize, cudaStreamCreateWithFlags, cudaGetLastError, ...). HIP has no device
// runtime: every hip* runtime function is host code, and clang refuses a kernel launch in device
// code. The pass changes nothing; it reports each launch and call (FRY1402) so the user knows the
// code must be restructured, and `ferry verify` counts the resulting error as diagnosed.
//
// Device code is a function definition whose declaration spells `__global__` or `__device__`
// without `__host__` (analysis::function_definitions). A `__host__ __device__` function is left
// alone: its launch may be the host path (`#ifndef __CUDA_ARCH__`). A runtime call is a call of a
// name the rule tables map as a function of the runtime or graph family: the same data that
// renames it, so the list of device-runtime entry points needs no copy here.
#include <cstdint>
#include <string>

#include "analysis/facts.h"
#include "analysis/names.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

constexpr std::string_view kHint =
    "HIP has no dynamic parallelism: launch the child kernels (and allocate their memory) from the host, "
    "after or between launches of the parent, or merge parent and children into one kernel that "
    "synchronizes with a cooperative-groups grid sync (hipLaunchCooperativeKernel)";

bool is_runtime_function(const rules::RuleSet& rules, std::string_view name) {
  const rules::Rule* r = rules.find_identifier(name);
  return r && (r->kind == rules::RuleKind::Func || r->kind == rules::RuleKind::Call) &&
         (r->family == "runtime" || r->family == "graph");
}

std::string_view space_of(const analysis::FunctionInfo& fn) { return fn.is_kernel ? "__global__" : "__device__"; }

}  // namespace

void dynamic_parallelism_pass(migrate::FileMigration& file, const analysis::FileFactsSlot& facts) {
  // Most files launch nothing from anywhere: skip them before the function scan (a launch, or a
  // name starting with "cuda" among the file's distinct names).
  bool any = !analysis::detail::launch_opens(file).empty();
  for (std::uint32_t id = 0, n = static_cast<std::uint32_t>(file.name_count()); id < n && !any; ++id)
    any = file.name_text(id).starts_with("cuda");
  if (!any) return;
  const rules::RuleSet& rules = file.target().rules();
  for (const analysis::FunctionInfo& fn : facts.get().functions) {
    if (!fn.is_device || fn.is_host) continue;
    for (std::size_t ci = fn.body_open + 1; ci < fn.body_close; ++ci) {
      if (file.excluded(ci)) continue;
      if (file.code(ci).kind == lex::Kind::LaunchOpen) {
        bool templated = false;
        const std::size_t start = launch_kernel_start(file, ci - 1, templated);
        const std::size_t at = start == migrate::npos ? ci : start;
        const std::string kernel =
            start == migrate::npos ? "a kernel" : "'" + std::string(file.span_text(start, ci - 1)) + "'";
        const std::string message = "dynamic parallelism: " + kernel + " launched from device code (" +
                                    std::string(space_of(fn)) + " function '" + fn.name + "')";
        file.count_unconverted("runtime");
        file.diag(Diag::DynamicParallelism, at, message, std::string(kHint));
        // clang reports the launch at the kernel's name and at the `<<<` (the call configuration):
        // a `<<<` on a line of its own gets the diagnostic too, so verify finds it on both lines.
        if (file.code(ci).line != file.code(at).line)
          file.diag(Diag::DynamicParallelism, ci, message + ": its launch configuration", std::string(kHint));
        continue;
      }
      if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.is_member_or_qualified(ci) ||
          file.code(ci).in_directive || !is_runtime_function(rules, file.text(ci)))
        continue;
      file.count_unconverted("runtime");
      file.diag(Diag::DynamicParallelism, ci,
                "dynamic parallelism: '" + std::string(file.text(ci)) + "' called from device code (" +
                    std::string(space_of(fn)) + " function '" + fn.name + "'); HIP's runtime API is host code",
                std::string(kHint));
    }
  }
}

}  // namespace ferry::targets::hip
