// HIP's vector types (float2, int4, ...) and complex types are classes with constructors;
// CUDA's are plain structs built with make_T(...). `float4(a, b, c, d)` and `float4(a)` (all
// components a) compile with hipcc and not with nvcc.
#include <string>

#include "buildsys/source_facts.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

struct Complex {
  std::string_view hip;
  std::string_view make;
};
constexpr Complex kComplex[] = {
    {"hipFloatComplex", "make_cuFloatComplex"},
    {"hipComplex", "make_cuComplex"},
    {"hipDoubleComplex", "make_cuDoubleComplex"},
    {"hipblasComplex", "make_cuComplex"},
    {"hipblasDoubleComplex", "make_cuDoubleComplex"},
    {"cuFloatComplex", "make_cuFloatComplex"},
    {"cuComplex", "make_cuComplex"},
    {"cuDoubleComplex", "make_cuDoubleComplex"},
};

bool simple_argument(const FileMigration& f, const migrate::ArgRange& a) {
  if (a.first != a.last) return false;
  const lex::Kind k = f.code(a.first).kind;
  return k == lex::Kind::Identifier || k == lex::Kind::Number;
}

}  // namespace

void vector_ctor_pass(FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci)) continue;
    if (file.is_member_or_qualified(ci)) continue;
    // Not a declaration or a cast target: `float4 (x)` after a type, `sizeof(float4)` etc.
    if (ci > 0 &&
        (file.is_identifier(ci - 1) || file.is(ci - 1, ">") || file.is(ci - 1, "*") || file.is(ci - 1, "&")) &&
        !(file.is(ci - 1, "return") || file.is(ci - 1, "else") || file.is(ci - 1, "case")))
      continue;
    const std::string_view t = file.text(ci);
    std::string make;
    int n = buildsys::vector_type_components(t);
    if (n > 0) {
      make = "make_" + std::string(t);
    } else {
      for (const Complex& c : kComplex)
        if (t == c.hip) make = std::string(c.make), n = 2;
    }
    if (make.empty()) continue;
    const std::size_t close = file.match_bracket(ci + 1);
    const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
    if (close == npos || args.empty() || (args.size() == 1 && args[0].empty())) continue;  // T(): value-init
    if (static_cast<int>(args.size()) == n) {
      if (!file.replace(ci, ci, make)) continue;
      file.count_converted("device");
      file.diag(Diag::VectorConstructor, Severity::Note, ci,
                std::string(t) + "(...) -> " + make + "(...): CUDA's vector and complex types have no constructors",
                "");
    } else if (args.size() == 1 && n > 1) {
      if (!simple_argument(file, args[0])) {
        file.diag(Diag::VectorConstructor, Severity::Warning, ci,
                  std::string(t) + "(x) fills every component with x in HIP; CUDA's " + std::string(t) +
                      " has no such constructor, and x is not a plain name or number: left unchanged",
                  "write " + make + "(v, v, ...) with v a local copy of x");
        continue;
      }
      const std::string x(file.text(args[0].first));
      std::string repl = make + "(";
      for (int k = 0; k < n; ++k) repl += (k ? ", " : "") + x;
      repl += ")";
      if (!file.replace(ci, close, repl)) continue;
      file.count_converted("device");
      file.diag(Diag::VectorConstructor, Severity::Note, ci,
                std::string(t) + "(x) -> " + make + "(x, ...): HIP's one-value constructor fills every component", "");
    }
  }
}

}  // namespace ferry::targets::cuda
