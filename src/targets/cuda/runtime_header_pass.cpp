#include <string>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool is_kernel_language(std::string_view t) {
  return t == "__global__" || t == "__device__" || t == "__shared__" || t == "__constant__" || t == "__host__" ||
         t == "threadIdx" || t == "blockIdx" || t == "blockDim" || t == "gridDim" || t == "__syncthreads" ||
         t == "__launch_bounds__";
}

}  // namespace

bool relies_on_includers_runtime(const migrate::FileMigration& file) {
  bool needs = false;
  bool has_include = false;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const lex::Token& t = file.code(ci);
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view h = file.text(ci);
      if (h.find("hip/hip_runtime") != std::string_view::npos || h.find("cuda_runtime") != std::string_view::npos ||
          h == "<cuda.h>" || h == "\"cuda.h\"")
        has_include = true;
      continue;
    }
    if (t.kind == lex::Kind::LaunchOpen) needs = true;
    if (t.kind == lex::Kind::Identifier && !needs) {
      const std::string_view s = file.text(ci);
      if (is_kernel_language(s) || s == "hipLaunchKernelGGL") needs = true;
      else if (const rules::Rule* r = file.target().rules().find_identifier(s);
               r && (r->family == "runtime" || r->family == "device") && r->has_replacement() && r->to != s)
        needs = true;
    }
  }
  return needs && !has_include && file.code_size() > 0;
}

void runtime_header_pass(migrate::FileMigration& file) {
  // The way back of a round trip (the input tree is Ferry's CUDA -> HIP output): the CUDA original
  // compiled with the includes it had (a header of its own brought the runtime), and the records
  // put back or take out what the HIP side added.
  if (file.project().migrated_by == "hip") return;
  if (!relies_on_includers_runtime(file)) return;

  // Same place as the CUDA → HIP target puts its header, so that the two round-trip.
  // Recorded as added (rewrite/roundtrip_record.h, to_hip): HIP -> CUDA -> HIP drops it again.
  if (file.insert_line_at_top("#include <cuda_runtime.h>" + added_record(file) + "\n")) file.count_converted("headers");
}

}  // namespace ferry::targets::cuda
