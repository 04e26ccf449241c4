// rocWMMA -> nvcuda::wmma (the namespace and header come from rules/hip2cuda/hip_only.tsv): the
// element types rocWMMA names itself become CUDA's, and each fragment's shape is checked against
// the shapes nvcuda::wmma has for its element type (FRY1207 when it has none).
#include <optional>
#include <string>
#include <vector>

#include "analysis/const_eval.h"
#include "analysis/facts.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

struct ElementType {
  std::string_view rocwmma;
  std::string_view cuda;
};
constexpr ElementType kTypes[] = {
    {"float16_t", "__half"},   {"hfloat16_t", "__half"},     {"bfloat16_t", "__nv_bfloat16"},
    {"float32_t", "float"},    {"float64_t", "double"},      {"xfloat32_t", "nvcuda::wmma::precision::tf32"},
    {"int8_t", "signed char"}, {"uint8_t", "unsigned char"}, {"int32_t", "int"},
};

// m, n, k nvcuda::wmma offers for an A/B element type (CUDA C++ Programming Guide, WMMA).
bool cuda_has_shape(std::string_view t, long m, long n, long k) {
  auto half_like = [&] {
    return (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) || (m == 8 && n == 32 && k == 16);
  };
  if (t == "float16_t" || t == "hfloat16_t" || t == "bfloat16_t" || t == "int8_t" || t == "uint8_t" || t == "__half" ||
      t == "half")
    return half_like();
  if (t == "xfloat32_t") return m == 16 && n == 16 && k == 8;
  if (t == "float64_t" || t == "double") return m == 8 && n == 8 && k == 4;
  return true;  // accumulator types (float32_t, int32_t) follow the A/B fragments' shape
}

// The constant value of the template argument [first, last) (a literal or a macro such as TILE).
long number(const FileMigration& f, const analysis::FileFacts& facts, std::size_t first, std::size_t last) {
  if (first >= last) return -1;
  const std::size_t fi = facts.function_at(first);
  const auto v = analysis::eval_constant(f, facts, first, last - 1, fi == npos ? nullptr : &facts.functions[fi]);
  return v ? static_cast<long>(*v) : -1;
}

}  // namespace

void wmma_pass(FileMigration& file) {
  std::optional<analysis::FileFacts> facts;
  // `namespace wmma = rocwmma;` (what the hip target writes for `using namespace nvcuda;`, the
  // usual CUDA spelling, and for `namespace wmma = nvcuda::wmma;`) comes back as `using namespace
  // nvcuda;`, which gives `wmma::` the same meaning under either original; with it in the
  // file, `rocwmma::X` comes back as `wmma::X`, as the CUDA wrote it (the hip target qualifies
  // every `wmma::X` as `rocwmma::X`); without the alias, `nvcuda::wmma::X`.
  auto is_alias = [&](std::size_t ci) {
    return file.is(ci, "namespace") && file.is(ci + 1, "wmma") && file.is(ci + 2, "=") && file.is(ci + 3, "rocwmma") &&
           file.is(ci + 4, ";") && !file.excluded(ci);
  };
  bool alias = false;
  for (std::size_t ci = 0; ci + 4 < file.code_size() && !alias; ++ci) alias = is_alias(ci);
  const std::string ns = alias ? "wmma" : "nvcuda::wmma";
  auto spell = [&](std::string_view cuda) {  // `nvcuda::wmma::X` as the file names the namespace
    constexpr std::string_view kFull = "nvcuda::wmma";
    return cuda.starts_with(kFull) ? ns + std::string(cuda.substr(kFull.size())) : std::string(cuda);
  };
  for (std::size_t ci = 0; ci + 2 < file.code_size(); ++ci) {
    if (is_alias(ci)) {
      if (file.replace(ci, ci + 4, "using namespace nvcuda;")) file.count_converted("wmma");
      ci += 4;
      continue;
    }
    if (!file.is(ci, "rocwmma") || !file.is(ci + 1, "::") || file.excluded(ci) || file.touched(ci)) continue;
    const std::string_view name = file.text(ci + 2);
    bool element = false;
    for (const ElementType& t : kTypes)
      if (name == t.rocwmma) {
        // `using rocwmma::float16_t;` declares the name for later unqualified uses: it becomes an
        // alias of CUDA's type (`using float16_t = __half;`), never `using __half;`.
        if (ci > 0 && file.is(ci - 1, "using") && file.is(ci + 3, ";"))
          element = file.replace(ci, ci + 2, std::string(name) + " = " + spell(t.cuda));
        else element = file.replace(ci, ci + 2, spell(t.cuda));
        break;
      }
    if (!element && file.replace(ci, ci, ns)) file.count_converted("wmma");  // the namespace
    if (name != "fragment" || !file.is(ci + 3, "<")) continue;
    // fragment<use, m, n, k, T[, layout]>: the arguments at top level.
    std::vector<std::size_t> starts{ci + 4};
    int depth = 1;
    std::size_t k = ci + 4;
    for (; k < file.code_size() && depth > 0; ++k) {
      if (file.is(k, "<")) ++depth;
      else if (file.is(k, ">")) --depth;
      else if (file.is(k, ">>")) depth -= 2;
      else if (file.is(k, ",") && depth == 1) starts.push_back(k + 1);
      else if (file.is(k, ";") || file.is(k, "{")) break;
    }
    if (starts.size() < 5) continue;
    if (!facts) facts = analysis::collect_facts(file);
    const long m = number(file, *facts, starts[1], starts[2] - 1), n = number(file, *facts, starts[2], starts[3] - 1),
               kk = number(file, *facts, starts[3], starts[4] - 1);
    std::size_t t = starts[4];
    if (file.is(t, "rocwmma") && file.is(t + 1, "::")) t += 2;
    if (m < 0 || n < 0 || kk < 0 || !file.is_identifier(t)) continue;
    const std::string_view type = file.text(t);
    const bool ab = file.is(starts[0], "matrix_a") || file.is(starts[0] + 2, "matrix_a") ||
                    file.is(starts[0], "matrix_b") || file.is(starts[0] + 2, "matrix_b");
    if (ab && (type == "float" || type == "float32_t") && m == 16 && n == 16 && kk == 8) {
      // fp32 inputs: CUDA's nearest fragment is TF32 (what the hip target writes as float).
      file.replace(starts[4], t, spell("nvcuda::wmma::precision::tf32"));
      file.diag(Diag::WmmaShapeMissing, Severity::Warning, ci + 2,
                "rocWMMA fp32 fragment 16x16x8: nvcuda::wmma has no fp32 A/B fragments; written as TF32",
                "TF32 keeps 10 mantissa bits: round the inputs with nvcuda::wmma::__float_to_tf32, or compute "
                "in fp32 without tensor cores where the precision matters");
      continue;
    }
    if (cuda_has_shape(type, m, n, kk)) continue;
    file.count_unconverted("wmma");
    file.diag(Diag::WmmaShapeMissing, Severity::Warning, ci + 2,
              "rocWMMA fragment " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(kk) + " of " +
                  std::string(type) + ": nvcuda::wmma has no fragment of this shape for this type",
              "use a shape CUDA has (16x16x16, 32x8x16 or 8x32x16 for half, bf16 and 8-bit integers; 16x16x8 "
              "for tf32; 8x8x4 for double) and tile the rocWMMA shape with several fragments");
  }
}

}  // namespace ferry::targets::cuda
