#include <string>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool is_kernel_language(std::string_view t) {
  return t == "__global__" || t == "__device__" || t == "__shared__" || t == "__constant__" ||
         t == "__host__" || t == "threadIdx" || t == "blockIdx" || t == "blockDim" ||
         t == "gridDim" || t == "__syncthreads" || t == "__launch_bounds__";
}

}  // namespace

void runtime_header_pass(migrate::FileMigration& file) {
  bool needs = false;
  bool has_include = false;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const lex::Token& t = file.code(ci);
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view h = file.text(ci);
      if (h.find("hip/hip_runtime") != std::string_view::npos ||
          h.find("cuda_runtime") != std::string_view::npos || h == "<cuda.h>" || h == "\"cuda.h\"")
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
  if (!needs || has_include || file.code_size() == 0) return;

  // Same place as the CUDA → HIP target puts its header, so that the two round-trip.
  std::size_t at = 0;
  const std::string_view src = file.source();
  std::uint32_t offset = file.code(0).begin;
  if (file.is(0, "#") && file.is(1, "pragma") && file.is(2, "once")) at = 3;
  else if (file.is(0, "#") && file.is(1, "ifndef") && file.is(3, "#") && file.is(4, "define")) at = 6;
  if (at > 0) {
    const std::size_t nl = src.find('\n', file.code(at - 1).end);
    offset = nl == std::string_view::npos ? static_cast<std::uint32_t>(src.size())
                                          : static_cast<std::uint32_t>(nl + 1);
  } else {
    const std::size_t line_start = src.rfind('\n', offset == 0 ? 0 : offset - 1);
    offset = line_start == std::string_view::npos || offset == 0 ? 0 : static_cast<std::uint32_t>(line_start + 1);
  }
  std::string text = "#include <cuda_runtime.h>\n";
  if (offset == src.size() && !src.empty() && src.back() != '\n') text.insert(0, "\n");
  file.replace_bytes(offset, offset, std::move(text));
  file.count_converted("headers");
}

}  // namespace ferry::targets::cuda
