// `half` / `half2` / `__half` / `__half2` in a file that includes no fp16 header.
//
// CUDA code often uses the half types in a header that includes nothing for them: it compiles
// because every .cu that includes it got cuda_fp16.h first, often through another CUDA header
// (cublas_api.h, cuda_bf16.h and mma.h include it). Their HIP counterparts do not all do so
// (HIP 5.2's hipblas.h does not include hip_fp16.h), so the header fails with "unknown type name
// 'half'". Like the CUDA target's implicit-headers pass, this adds the header where the type is
// used and not declared: a file that names a half type as a type, includes no fp16 header itself
// (cuda_fp16.h, hip/hip_fp16.h, or a CUDA/HIP header that includes it) nor through the tree's
// headers it includes, and declares no `half` of its own gets `#include <hip/hip_fp16.h>` after
// its include guard, recorded `/* ferry-cuda: (none) */` so that HIP -> CUDA drops it again.
// Reported with FRY1310.
#include <array>
#include <set>
#include <string>
#include <vector>

#include "targets/hip/pass_util.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

// Headers that declare the half types (CUDA's, before the rules rename them, and HIP's).
bool provides_half(std::string_view h) {
  static constexpr std::array<std::string_view, 14> kHeaders = {"cuda_fp16.h",         "cuda_fp16.hpp",
                                                                "hip/hip_fp16.h",      "cuda_bf16.h",
                                                                "hip/hip_bf16.h",      "mma.h",
                                                                "crt/mma.h",           "cuda_fp8.h",
                                                                "hip/hip_fp8.h",       "cublas_v2.h",
                                                                "cublas_api.h",        "cublasLt.h",
                                                                "rocwmma/rocwmma.hpp", "hip/amd_detail/amd_hip_fp16.h"};
  for (std::string_view k : kHeaders)
    if (h == k || h.ends_with("/" + std::string(k))) return true;
  // Ferry's own compat headers for half and bfloat16 include hip_fp16.h.
  return h.ends_with("ferry/compat/bf16.h") || h.ends_with("ferry/compat/fp16.h") ||
         h.ends_with("ferry/compat/fp16_atomic.h") || h.ends_with("ferry/compat/fp8.h") || h == "torch/extension.h" ||
         h.starts_with("ATen/") || h.starts_with("c10/");
}

// Whether `rel` gets a half header through its own includes, following the tree's headers
// (quoted includes resolved against the including file's folder, else by path suffix).
bool gets_half(const targets::ProjectContext& ctx, const std::string& rel, std::set<std::string>& seen) {
  if (!seen.insert(rel).second) return false;
  const auto it = ctx.includes.find(rel);
  if (it == ctx.includes.end()) return false;
  const std::string dir = rel.find('/') == std::string::npos ? "" : rel.substr(0, rel.rfind('/') + 1);
  for (const std::string& raw : it->second) {
    if (raw.size() < 2) continue;
    const std::string path = raw.substr(1, raw.size() - 2);
    if (provides_half(path)) return true;
    if (raw.front() == '<') continue;
    std::string target = dir + path;
    if (!ctx.includes.contains(target))
      for (const auto& [other, _] : ctx.includes)
        if (other == path || other.ends_with("/" + path)) {
          target = other;
          break;
        }
    if (gets_half(ctx, target, seen)) return true;
  }
  return false;
}

bool is_half_name(std::string_view t) { return t == "half" || t == "half2" || t == "__half" || t == "__half2"; }

// `half` used as a type: `half x`, `half* p`, `half&`, `<half>`, `(half)x`, `half(…)` after a
// type-free position. `int half = n / 2;` (a variable named half) is not one. The reserved
// __half / __half2 are types wherever they appear.
bool used_as_type(const migrate::FileMigration& file, std::size_t ci) {
  const std::string_view t = file.text(ci);
  const std::string_view prev = ci > 0 ? file.text(ci - 1) : std::string_view();
  if (prev == "." || prev == "->" || prev == "::") return false;
  if (t.starts_with("__")) return true;
  if (ci + 1 >= file.code_size()) return false;
  const std::string_view next = file.text(ci + 1);
  // Declared as a variable or function itself: a type word before it.
  if (ci > 0 && file.is_identifier(ci - 1) && prev != "return" && prev != "const" && prev != "volatile" &&
      prev != "static" && prev != "inline" && prev != "extern" && prev != "__device__" && prev != "__host__" &&
      prev != "__shared__" && prev != "__constant__" && prev != "__forceinline__" && prev != "typename" &&
      prev != "constexpr" && prev != "sizeof" && prev != "case")
    return false;
  if (file.is_identifier(ci + 1)) return true;  // half x, half operator+
  if (next == "*" || next == "&" || next == "&&") return prev != ")" && !file.is(ci - 1, "]");
  if (next == ">" || next == ",") return prev == "<" || prev == ",";
  if (next == ")") return prev == "(";  // a cast, sizeof(half)
  return false;
}

// The file declares `half` itself: `typedef … half;`, `struct half`, `using half =`, `class half`.
bool declares_half(const migrate::FileMigration& file) {
  for (std::size_t ci = 1; ci + 1 < file.code_size(); ++ci) {
    if (!is_half_name(file.text(ci)) || file.text(ci).starts_with("__")) continue;
    const std::string_view prev = file.text(ci - 1);
    if (prev == "struct" || prev == "class" || prev == "union" || prev == "using") return true;
    if (file.is(ci + 1, ";") && file.is_identifier(ci - 1)) return true;                    // typedef uint16_t half;
    if (file.is(ci + 1, "=") || file.is(ci + 1, ";") || file.is(ci + 1, "[")) return true;  // int half = …
  }
  return false;
}

}  // namespace

void fp16_header_pass(migrate::FileMigration& file) {
  const std::string_view path = file.path();
  if (path.ends_with(".c") || path.ends_with(".C")) return;
  std::size_t use = migrate::npos;
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    const lex::Token& t = file.code(ci);
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view h = file.text(ci);
      if (h.size() >= 2 && provides_half(h.substr(1, h.size() - 2))) return;
      continue;
    }
    if (use != migrate::npos || t.kind != lex::Kind::Identifier || t.in_directive || file.excluded(ci)) continue;
    if (is_half_name(file.text(ci)) && used_as_type(file, ci)) use = ci;
  }
  if (use == migrate::npos || declares_half(file)) return;
  std::set<std::string> seen;
  if (gets_half(file.project(), std::string(path), seen)) return;
  if (!file.insert_line_at_top("#include <hip/hip_fp16.h> /* ferry-cuda: (none) */\n")) return;
  file.count_converted("headers");
  file.diag(Diag::Fp16HeaderAdded, use,
            "<hip/hip_fp16.h> added: the file uses '" + std::string(file.text(use)) +
                "' and includes no fp16 header (under nvcc the files including it got cuda_fp16.h first, often "
                "through another CUDA header)",
            "nothing to do; HIP -> CUDA removes it again");
}

}  // namespace ferry::targets::hip
