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
//
// The same holds for cuComplex: cublas_api.h, cufft.h and cusparse.h include cuComplex.h, while
// HIP 5.x's hipblas.h includes hip_complex.h only under ROCM_MATHLIBS_API_USE_HIP_COMPLEX, so a file
// that uses cuComplex / make_cuFloatComplex / cuCaddf … through cublas_v2.h alone fails with
// "unknown type name 'hipComplex'". A file that names one of them and gets no complex header gets
// `#include <hip/hip_complex.h>`, recorded the same way.
#include <array>
#include <set>
#include <string>
#include <vector>

#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
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
  // The HIP names of the CUDA library headers above (a HIP output migrated again decides as the
  // migration that wrote it did, so that the output is a fixed point).
  if (h == "hipblas.h" || h.ends_with("hipblas/hipblas.h") || h.ends_with("hipblaslt/hipblaslt.h")) return true;
  // Ferry's own compat headers for half and bfloat16 include hip_fp16.h.
  return h.ends_with("ferry/compat/bf16.h") || h.ends_with("ferry/compat/fp16.h") ||
         h.ends_with("ferry/compat/fp16_atomic.h") || h.ends_with("ferry/compat/fp8.h") || h == "torch/extension.h" ||
         h.starts_with("ATen/") || h.starts_with("c10/");
}

// Whether `rel` gets a half header through its own includes, following the tree's headers
// (quoted includes resolved against the including file's folder, else by path suffix).
bool gets_header(const targets::ProjectContext& ctx, const std::string& rel, std::set<std::string>& seen,
                 bool (*provides)(std::string_view)) {
  if (!seen.insert(rel).second) return false;
  const auto headers = ctx.includes.find(rel);
  if (!headers) return false;
  const std::string dir = rel.find('/') == std::string::npos ? "" : rel.substr(0, rel.rfind('/') + 1);
  for (const std::string& raw : *headers) {
    if (raw.size() < 2) continue;
    const std::string path = raw.substr(1, raw.size() - 2);
    if (provides(path)) return true;
    if (raw.front() == '<') continue;
    const std::string target = ctx.project_include(dir, path);
    if (gets_header(ctx, target, seen, provides)) return true;
  }
  return false;
}

bool is_half_name(std::string_view t) { return t == "half" || t == "half2" || t == "__half" || t == "__half2"; }

// cuComplex.h's names (CUDA's, before the rules rename them).
bool is_complex_name(std::string_view t) {
  if (t == "cuComplex" || t == "cuFloatComplex" || t == "cuDoubleComplex") return true;
  if (t.starts_with("make_cu") && t.ends_with("Complex")) return true;
  static constexpr std::array<std::string_view, 8> kOps = {"cuCadd",  "cuCsub",  "cuCmul", "cuCdiv",
                                                           "cuCreal", "cuCimag", "cuCabs", "cuConj"};
  for (std::string_view op : kOps)
    if (t == op || (t.size() == op.size() + 1 && t.starts_with(op) && t.back() == 'f')) return true;
  return false;
}

// Headers that declare cuComplex (CUDA's) or hipComplex (HIP's).
bool provides_complex(std::string_view h) {
  static constexpr std::array<std::string_view, 10> kHeaders = {
      "cuComplex.h",   "hip/hip_complex.h", "cufft.h",      "cufftXt.h",         "cusparse.h",
      "cusparse_v2.h", "cusolverDn.h",      "cusolverSp.h", "cusolver_common.h", "hipfft/hipfft.h"};
  for (std::string_view k : kHeaders)
    if (h == k || h.ends_with("/" + std::string(k))) return true;
  return h == "hipfft.h" || h.starts_with("hipsparse") || h.starts_with("hipsolver") || h.starts_with("rocsolver");
}

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

// The file declares a type `half` itself: `typedef … half;`, `struct half`, `using half =`,
// `class half`. (A variable named half, `int half = n / 2;`, declares no type.)
bool declares_half(const migrate::FileMigration& file) {
  for (const std::size_t ci : file.occurrences({"half", "half2"})) {
    if (ci < 1 || ci + 1 >= file.code_size()) continue;
    const std::string_view prev = file.text(ci - 1);
    if (prev == "struct" || prev == "class" || prev == "union" || prev == "enum") return true;
    if (prev == "using" && file.is(ci + 1, "=")) return true;
    if (!file.is(ci + 1, ";")) continue;
    for (std::size_t k = ci; k-- > 0;) {  // typedef … half;
      const std::string_view t = file.text(k);
      if (t == ";" || t == "{" || t == "}") break;
      if (t == "typedef") return true;
    }
  }
  return false;
}

// Byte offset just after the last #include at the top level (outside #if blocks) before the first
// line of code; npos when there is none. The header goes there: after hip_runtime.h, which the HIP
// headers expect first (runtime_header_pass would otherwise move it above them on a second run).
std::uint32_t after_leading_includes(const migrate::FileMigration& file) {
  int depth = 0;
  std::uint32_t at = static_cast<std::uint32_t>(std::string_view::npos);
  const std::string_view src = file.source();
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.code(ci).in_directive) break;
    if (!file.is(ci, "#")) continue;
    const std::string_view d = file.text(ci + 1);
    if (d == "if" || d == "ifdef" || d == "ifndef") ++depth;
    else if (d == "endif") --depth;
    else if (d == "include" && depth <= (file.is(0, "#") && file.is(1, "ifndef") ? 1 : 0)) {
      const std::size_t nl = src.find('\n', file.code(ci + 1).end);
      at = static_cast<std::uint32_t>(nl == std::string_view::npos ? src.size() : nl + 1);
    }
  }
  return at;
}

}  // namespace

void fp16_header_pass(migrate::FileMigration& file) {
  const std::string_view path = file.path();
  if (path.ends_with(".c") || path.ends_with(".C")) return;
  std::size_t half_use = migrate::npos, complex_use = migrate::npos;
  bool has_half = false, has_complex = false;
  for (const std::uint32_t ci : header_names(file)) {
    const std::string_view h = file.text(ci);
    if (h.size() < 2) continue;
    has_half = has_half || provides_half(h.substr(1, h.size() - 2));
    has_complex = has_complex || provides_complex(h.substr(1, h.size() - 2));
  }
  // The first uses: the half and complex names' occurrences, in file order.
  for (const std::size_t ci : analysis::detail::identifiers_where(
           file, [](std::string_view name) { return is_half_name(name) || is_complex_name(name); })) {
    if (half_use != migrate::npos && complex_use != migrate::npos) break;
    if (file.in_directive(ci) || file.excluded(ci)) continue;
    const std::string_view name = file.text(ci);
    if (half_use == migrate::npos && is_half_name(name) && used_as_type(file, ci)) half_use = ci;
    if (complex_use == migrate::npos && is_complex_name(name) && !file.is_member_or_qualified(ci) &&
        !is_declared_name(file, ci))
      complex_use = ci;
  }
  struct Need {
    std::size_t use;
    bool has;
    bool (*provides)(std::string_view);
    std::string_view header;
    std::string_view what;
  };
  const Need needs[] = {
      {half_use, has_half || declares_half(file), provides_half, "hip/hip_fp16.h",
       "includes no fp16 header (under nvcc the files including it got cuda_fp16.h first, often through another "
       "CUDA header)"},
      {complex_use, has_complex, provides_complex, "hip/hip_complex.h",
       "includes no complex header (under nvcc cuComplex.h comes with cublas_v2.h, cufft.h, cusparse.h; HIP 5.x's "
       "hipblas.h does not include hip_complex.h)"}};
  for (const Need& n : needs) {
    if (n.use == migrate::npos || n.has) continue;
    std::set<std::string> seen;
    if (gets_header(file.project(), std::string(path), seen, n.provides)) continue;
    const std::string line = "#include <" + std::string(n.header) + "> " + std::string(rewrite::record::kAdded) + "\n";
    const std::uint32_t at = after_leading_includes(file);
    const bool none = at == static_cast<std::uint32_t>(std::string_view::npos);
    if (!(none ? file.insert_line_at_top(line) : file.replace_bytes(at, at, line))) continue;
    file.count_converted("headers");
    file.diag(Diag::Fp16HeaderAdded, n.use,
              "<" + std::string(n.header) + "> added: the file uses '" + std::string(file.text(n.use)) + "' and " +
                  std::string(n.what),
              "nothing to do; HIP -> CUDA removes it again");
  }
}

}  // namespace ferry::targets::hip
