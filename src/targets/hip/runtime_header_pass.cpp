#include <algorithm>
#include <string>

#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// Names whose presence means the file is CUDA/HIP code that needs the runtime header.
bool is_kernel_language(std::string_view t) {
  return t == "__global__" || t == "__device__" || t == "__shared__" || t == "__constant__" || t == "__host__" ||
         t == "threadIdx" || t == "blockIdx" || t == "blockDim" || t == "gridDim" || t == "__syncthreads" ||
         t == "__launch_bounds__";
}

// Byte offset of the start of the line holding code token `ci`.
std::uint32_t line_start_of(const migrate::FileMigration& file, std::size_t ci) {
  const std::string_view src = file.source();
  const std::uint32_t offset = file.code(ci).begin;
  if (offset == 0) return 0;
  const std::size_t nl = src.rfind('\n', offset - 1);
  return nl == std::string_view::npos ? 0 : static_cast<std::uint32_t>(nl + 1);
}

// True for an include that, after migration, names a HIP header other than the runtime one
// (hip/hip_cooperative_groups.h, hip/hip_fp16.h, ...): those expect hip_runtime.h first.
bool is_dependent_hip_header(const migrate::FileMigration& file, std::string_view raw) {
  const std::string_view path = raw.substr(1, raw.size() - 2);
  std::string_view after = path;
  if (const rules::Rule* r = file.target().rules().find_header(path); r && r->has_replacement()) after = r->to;
  return after.starts_with("hip/") && !after.starts_with("hip/hip_runtime");
}

// An include recorded as added, `#include <hip/hip_fp16.h> /* ferry-cuda: (none) */` (the fp16
// header pass's, in a HIP output migrated again): the migration that added it saw no need for the
// runtime before it, and this one decides the same (the output is a fixed point).
bool added_by_ferry(const migrate::FileMigration& file, std::size_t ci) {
  const auto rec = rewrite::record::after(file.tokens(), file.source(), file.token_index(ci));
  return rec && rec->text == rewrite::record::kNone;
}

}  // namespace

void runtime_header_pass(migrate::FileMigration& file) {
  bool needs = false;
  bool has_include = false;
  // The first include of a HIP header that needs the runtime before it, if it comes before any
  // runtime include: HIP 5.2's hip_cooperative_groups.h, for one, fails to compile otherwise.
  std::size_t dependent_first = migrate::npos;
  std::size_t runtime_after = migrate::npos;  // header name of the runtime include after it
  bool conditional_between = false;
  // The header names and the conditional directives, in file order.
  const std::vector<std::uint32_t> headers = header_names(file);
  std::vector<std::uint32_t> at = headers;
  for (const std::uint32_t ci : conditional_directives(file)) at.push_back(ci);
  std::inplace_merge(at.begin(), at.begin() + static_cast<std::ptrdiff_t>(headers.size()), at.end());
  for (const std::size_t ci : at) {
    // Excluded code (`// ferry: off`, as in the compat headers Ferry writes) asks for nothing:
    // migrating such a file again must not gain an include.
    if (file.excluded(ci)) continue;
    if (file.code(ci).kind == lex::Kind::HeaderName) {
      const std::string_view h = file.text(ci);
      // Any header that brings in the runtime: the HIP one, or a CUDA one the rules convert.
      if (h.find("hip/hip_runtime") != std::string_view::npos || h.find("cuda_runtime") != std::string_view::npos ||
          h == "<cuda.h>" || h == "\"cuda.h\"") {
        if (!has_include && dependent_first != migrate::npos) runtime_after = ci;
        has_include = true;
      } else if (!has_include && dependent_first == migrate::npos && ci >= 2 && file.is(ci - 2, "#") &&
                 is_dependent_hip_header(file, h) && !added_by_ferry(file, ci)) {
        dependent_first = ci - 2;
      }
      continue;
    }
    if (dependent_first != migrate::npos && !has_include) conditional_between = true;
  }
  // Whether the file needs the runtime: a launch, or a name of the kernel language or one the
  // rules rename to the runtime or device API (decided once per name), outside excluded code.
  for (const std::size_t ci : analysis::detail::launch_opens(file)) needs = needs || !file.excluded(ci);
  if (!needs) {
    const rules::RuleSet& rules = file.target().rules();
    for (const std::size_t ci : analysis::detail::identifiers_where(file, [&](std::string_view s) {
           if (is_kernel_language(s)) return true;
           const rules::Rule* r = rules.find_identifier(s);
           return r && (r->family == "runtime" || r->family == "device") && r->has_replacement() && r->to != s;
         }))
      if (!file.excluded(ci)) {
        needs = true;
        break;
      }
  }
  if (dependent_first != migrate::npos) {
    // Move the runtime include up: insert it before the dependent header and drop the later one
    // (same #if branch only), so the output includes it once and migrating it again is a no-op.
    const std::uint32_t at = line_start_of(file, dependent_first);
    // Both recorded (rewrite/roundtrip_record.h: added, dropped), so HIP -> CUDA puts the
    // original include back where it was and nothing at the top.
    if (file.replace_bytes(at, at, "#include <hip/hip_runtime.h> " + std::string(rewrite::record::kAdded) + "\n")) {
      file.count_converted("headers");
      if (runtime_after != migrate::npos && !conditional_between) {
        const std::string_view line = file.span_text(runtime_after - 2, runtime_after);
        if (!rewrite::record::recordable(line) ||
            !file.replace(runtime_after - 2, runtime_after, rewrite::record::make(line)))
          file.remove_include_line(runtime_after);
      }
    }
    return;
  }
  // A .cu file always gets it, even with host code only: nvcc includes the runtime implicitly,
  // HIP compilers other than hipcc (clang -x hip, amdclang++, a CMake HIP target) do not.
  if (file.path().ends_with(".cu")) needs = true;
  if (!needs || has_include || file.code_size() == 0) return;

  // Recorded as added, so HIP -> CUDA leaves it out again (nvcc includes the runtime itself).
  if (file.insert_line_at_top("#include <hip/hip_runtime.h> " + std::string(rewrite::record::kAdded) + "\n"))
    file.count_converted("headers");
}

}  // namespace ferry::targets::hip
