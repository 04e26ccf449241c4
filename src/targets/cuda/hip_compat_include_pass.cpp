// The CUDA -> HIP target includes its own compat headers, ferry/compat/<name>.h (rules/compat/hip),
// for CUDA names the target HIP release lacks (__hmax2, umin, cuda_fp8.h's C API, ...). CUDA has
// those names itself, so the way back gives the CUDA header the compat header stood for
// (rules/compat/hip/compat.tsv's `header` rows) or, for one added for names alone, drops the line:
//   #include "ferry/compat/fp8.h"             #include <cuda_fp8.h>
//   #include "ferry/compat/minmax.h"          removed (with whatever path prefix it was given)
// HIP -> CUDA -> HIP then writes the same include again (a fixed point), and nvcc never looks for
// a header that only the HIP output tree has.
#include <map>
#include <string>
#include <string_view>

#include "core/split.h"
#include "rules/builtin.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

// compat header name -> the CUDA header it replaces (the first `header` row that names it).
const std::map<std::string, std::string, std::less<>>& replaced_headers() {
  static const std::map<std::string, std::string, std::less<>> m = [] {
    std::map<std::string, std::string, std::less<>> out;
    for (const std::string_view line : table_rows(rules::builtin_table("compat/hip/compat.tsv"))) {
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() >= 3 && f[0] == "header") out.emplace(std::string(f[2]), std::string(f[1]));
    }
    return out;
  }();
  return m;
}

}  // namespace

void hip_compat_include_pass(migrate::FileMigration& file) {
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName || file.excluded(ci)) continue;
    const std::string_view h = file.text(ci);
    if (h.size() < 2 || h.front() != '"') continue;
    const std::string_view path = h.substr(1, h.size() - 2);
    const std::size_t at = path.rfind("ferry/compat/");
    if (at == std::string_view::npos || (at > 0 && path[at - 1] != '/')) continue;
    const std::string_view name = path.substr(at + 13);
    if (!name.ends_with(".h") || name.find('/') != std::string_view::npos) continue;
    const auto cuda = replaced_headers().find(name.substr(0, name.size() - 2));
    const bool done = cuda != replaced_headers().end() ? file.replace(ci, ci, "<" + cuda->second + ">")
                                                       : file.remove_include_line(ci);
    if (done) file.count_converted("headers");
  }
}

}  // namespace ferry::targets::cuda
