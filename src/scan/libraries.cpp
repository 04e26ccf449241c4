// Which library a use belongs to. The knowledge is rules/libraries.h's table (shared with
// buildsys); this file asks it the questions scan has: of a header, a family, a name prefix, a
// namespace, a link name, and sums up the libraries in play.
#include <algorithm>

#include "rules/libraries.h"
#include "scan/scanner.h"

namespace ferry::scan {
namespace detail {

std::string_view header_library(std::string_view path) {
  const rules::CudaLibrary* l = rules::library_of_header(path);
  return l ? l->id : std::string_view{};
}

std::string_view family_library(std::string_view family) { return rules::library_of_family(family).id; }

std::optional<Guess> guess_by_prefix(std::string_view n) {
  // The libraries' own prefixes (rules/libraries.h: "cublas CUBLAS_"): a lower-case prefix
  // followed by an upper-case letter or '_', or an upper-case one followed by anything. The
  // runtime's and the driver's short prefixes need the stricter tests below.
  for (const rules::CudaLibrary& l : rules::cuda_libraries()) {
    if (l.prefixes.empty()) continue;
    const std::size_t sp = l.prefixes.find(' ');
    const std::string_view lo = l.prefixes.substr(0, sp),
                           up = sp == std::string_view::npos ? std::string_view{} : l.prefixes.substr(sp + 1);
    const bool low = starts(n, lo) && n.size() > lo.size() && (upper_at(n, lo.size()) || n[lo.size()] == '_');
    if (low || (!up.empty() && starts(n, up) && n.size() > up.size())) {
      const std::size_t fs = l.families.find(' ');
      return Guess{l.families.substr(0, fs), l.id};
    }
  }
  if (starts(n, "cuda") && upper_at(n, 4)) return Guess{"runtime", "cuda-runtime"};
  if (starts(n, "CUDA_") && n.size() > 5) return Guess{"runtime", "cuda-runtime"};
  if (starts(n, "cu") && upper_at(n, 2)) return Guess{"driver", "cuda-driver"};
  if (starts(n, "CU") && n.size() > 2 && (std::islower(static_cast<unsigned char>(n[2])) || n[2] == '_'))
    return Guess{"driver", "cuda-driver"};
  return std::nullopt;
}

std::string_view namespace_library(std::string_view ns) {
  const rules::CudaLibrary* l = rules::library_of_namespace(ns);
  return l ? l->id : std::string_view{};
}

std::string_view link_library(std::string_view name) {
  if (starts(name, "CUDA::")) name.remove_prefix(6);
  if (ends(name, "_static")) name.remove_suffix(7);
  if (name == "nccl.h")  // find_path(NCCL_INCLUDE_DIR nccl.h)
    return "nccl";
  const rules::CudaLibrary* l = rules::library_of_link(name);
  return l ? l->id : std::string_view{};
}

std::vector<LibraryUse> library_uses(const std::vector<ApiUse>& uses) {
  std::map<std::string, LibraryUse> libs;
  for (const ApiUse& u : uses) {
    if (u.library.empty()) continue;
    LibraryUse& l = libs[u.library];
    if (l.id.empty()) {
      l.id = u.library;
      const rules::CudaLibrary* info = rules::find_library(u.library);
      l.name = info ? std::string(info->name) : u.library;
      l.category = info ? std::string(info->category) : "gpu-library";
      l.first = u.file + ":" + std::to_string(u.line) + ":" + std::to_string(u.col);
    }
    ++l.uses;
    if (l.files.empty() || l.files.back() != u.file) l.files.push_back(u.file);
  }
  std::vector<LibraryUse> out;
  for (auto& [id, l] : libs) {
    std::sort(l.files.begin(), l.files.end());
    l.files.erase(std::unique(l.files.begin(), l.files.end()), l.files.end());
    out.push_back(std::move(l));
  }
  std::stable_sort(out.begin(), out.end(), [](const LibraryUse& a, const LibraryUse& b) { return a.uses > b.uses; });
  return out;
}

}  // namespace detail

std::string library_name(std::string_view id) {
  const rules::CudaLibrary* l = rules::find_library(id);
  return l ? std::string(l->name) : std::string(id);
}

}  // namespace ferry::scan
