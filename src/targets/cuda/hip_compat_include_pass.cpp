// The CUDA -> HIP target includes its own compat headers, ferry/compat/<name>.h (rules/compat/hip),
// for CUDA names the target HIP release lacks (__hmax2, umin, cuda_fp8.h's C API, ...). CUDA has
// those names itself, so the way back gives the CUDA header the compat header stood for
// (rules/compat/hip/compat.tsv's `header` rows) or, for one added for names alone, drops the line:
//   #include "ferry/compat/fp8.h"             #include <cuda_fp8.h>
//   #include "ferry/compat/minmax.h"          removed (with whatever path prefix it was given)
// HIP -> CUDA -> HIP then writes the same include again (a fixed point), and nvcc never looks for
// a header that only the HIP output tree has. The calls a compat header exists for under a name of
// its own go back to CUDA's form: `ferry_tile_shfl_xor(tile, v, 1)` (tile_shfl.h, a tile shuffle
// of a vector value, which CUDA's member takes) -> `tile.shfl_xor(v, 1)`;
// `ferry_device_attribute(prop, hipDeviceAttributeAsyncEngineCount)` (device_prop.h, a member HIP
// 5.2's hipDeviceProp_t lacks; also under its `static_cast<size_t>(...)`) -> `prop.asyncEngineCount`,
// and `ferry_device_attribute(*p, ...)` -> `p->...` (rules/hip_members.tsv's attribute column).
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/split.h"
#include "rules/builtin.h"

#include "targets/cuda/passes.h"
#include "targets/hip/compat.h"

namespace ferry::targets::cuda {
namespace {

constexpr std::string_view kCompatDir = "ferry/compat/";  // where the hip target writes them

// The CUDA header that compat header `name` replaced (hip::compat_table()'s header rows; the
// first in path order where several name it: bf16 -> cuda_bf16.h), or null.
const std::string* replaced_header(std::string_view name) {
  for (const auto& [cuda_header, compat] : hip::compat_table().by_header)
    if (compat == name) return &cuda_header;
  return nullptr;
}

// `ferry_tile_shfl*(tile, ` -> `tile.shfl*(` (the hip target's tile_shuffle_pass, undone).
void tile_shuffle_back(migrate::FileMigration& file) {
  constexpr std::string_view kPrefix = "ferry_tile_";
  for (std::size_t ci = 0; ci + 3 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.excluded(ci) || file.code(ci).in_directive) continue;
    const std::string_view fn = file.text(ci);
    if (!fn.starts_with(kPrefix)) continue;
    const std::string_view member = fn.substr(kPrefix.size());
    if (member != "shfl" && member != "shfl_up" && member != "shfl_down" && member != "shfl_xor") continue;
    if (!file.is(ci + 1, "(") || !file.is_identifier(ci + 2) || !file.is(ci + 3, ",")) continue;
    // The one blank the forward pass writes after the comma goes too.
    std::uint32_t end = file.code(ci + 3).end;
    if (end < file.source().size() && file.source()[end] == ' ') ++end;
    if (file.replace_bytes(file.code(ci).begin, end, std::string(file.text(ci + 2)) + "." + std::string(member) + "("))
      file.count_converted("warp");
  }
}

// hipDeviceAttribute* -> the hipDeviceProp_t member it stands for (rules/hip_members.tsv rows
// with an attribute).
const std::unordered_map<std::string, std::string>& prop_attributes() {
  static const std::unordered_map<std::string, std::string> map = [] {
    std::unordered_map<std::string, std::string> m;
    for (std::string_view row : table_rows(rules::builtin_table("hip_members.tsv"))) {
      const std::vector<std::string_view> f = split(row, '\t');
      if (f.size() == 5 && f[0] == "hipDeviceProp_t") m.emplace(f[3], f[1]);
    }
    return m;
  }();
  return map;
}

// `[static_cast<T>(]ferry_device_attribute(OBJ, ATTR)[)]` -> `OBJ.member`, `(*P, ATTR)` -> `P->member`.
// Only the call's own tokens are edited: OBJ's stay for the rules.
void device_attribute_back(migrate::FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is(ci, "ferry_device_attribute") || !file.is(ci + 1, "(") || file.excluded(ci)) continue;
    const std::size_t close = file.match_bracket(ci + 1);
    const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
    if (close == migrate::npos || args.size() != 2 || args[0].empty() || args[1].first != args[1].last) continue;
    const auto it = prop_attributes().find(std::string(file.text(args[1].first)));
    if (it == prop_attributes().end()) continue;
    const bool arrow = file.is(args[0].first, "*") && args[0].last > args[0].first;
    // static_cast < T > ( ferry_device_attribute ( ... ) )
    std::size_t first = ci, last = close;
    if (ci >= 5 && file.is(ci - 1, "(") && file.is(close + 1, ")") && file.match_bracket(ci - 1) == close + 1) {
      std::size_t lt = ci - 2;
      if (file.is(lt, ">")) {
        while (lt > 0 && !file.is(lt, "<")) --lt;
        if (file.is(lt, "<") && lt > 0 && file.is(lt - 1, "static_cast")) {
          first = lt - 1;
          last = close + 1;
        }
      }
    }
    // `ferry_device_attribute(` (and the cast's opening, and `*`) go; `, ATTR)` (and the cast's `)`)
    // become the member access.
    const std::size_t open_last = arrow ? args[0].first : ci + 1;
    if (!file.replace(first, open_last, "")) continue;
    file.replace(args[0].last + 1, last, std::string(arrow ? "->" : ".") + it->second);
    file.count_converted("runtime");
  }
}

}  // namespace

void hip_compat_include_pass(migrate::FileMigration& file) {
  tile_shuffle_back(file);
  device_attribute_back(file);
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName || file.excluded(ci)) continue;
    const std::string_view h = file.text(ci);
    if (h.size() < 2 || h.front() != '"') continue;
    const std::string_view path = h.substr(1, h.size() - 2);
    const std::size_t at = path.rfind(kCompatDir);
    if (at == std::string_view::npos || (at > 0 && path[at - 1] != '/')) continue;
    const std::string_view name = path.substr(at + kCompatDir.size());
    if (!name.ends_with(".h") || name.find('/') != std::string_view::npos) continue;
    const std::string* cuda = replaced_header(name.substr(0, name.size() - 2));
    const bool done = cuda ? file.replace(ci, ci, "<" + *cuda + ">") : file.remove_include_line(ci);
    if (done) file.count_converted("headers");
  }
}

}  // namespace ferry::targets::cuda
