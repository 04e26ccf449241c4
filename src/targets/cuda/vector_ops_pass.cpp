// HIP's vector types (float4, int2, uint4, ...) have arithmetic operators; CUDA's are plain
// structs without them: `a + b` on two float4 compiles with hipcc and not with nvcc. A file that
// does arithmetic on a name it declares with a vector type includes ferry/compat_cuda_vector.h,
// which defines the operators HIP has, componentwise, in the global namespace (where ADL finds them
// for CUDA's vector types). Not when the project defines such operators itself, and not on the way
// back of a CUDA -> HIP migration (the CUDA originals compiled without them). FRY4241.
#include <optional>
#include <string>
#include <unordered_set>

#include "buildsys/source_facts.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool arithmetic(std::string_view op) {
  return op == "+" || op == "-" || op == "*" || op == "/" || op == "+=" || op == "-=" || op == "*=" || op == "/=" ||
         op == "%" || op == "%=" || op == "&" || op == "|" || op == "^" || op == "&=" || op == "|=" || op == "^=";
}

// HIP's complex types are its float2/double2 (hip_complex.h gives them +, -, *, / with complex
// meaning); CUDA's cuFloatComplex/cuDoubleComplex are plain float2/double2. Addition, subtraction
// and negation are componentwise either way; a product or quotient is not (FRY1316).
bool complex_type(std::string_view t) {
  return t == "hipFloatComplex" || t == "hipComplex" || t == "hipDoubleComplex" || t == "rocblas_float_complex" ||
         t == "rocblas_double_complex" || t == "hipblasComplex" || t == "hipblasDoubleComplex" ||
         t == "cuFloatComplex" || t == "cuComplex" || t == "cuDoubleComplex";
}
bool vector_like(std::string_view t) { return buildsys::vector_type_components(t) > 0 || complex_type(t); }

// `std::vector<T> name` (or std::array<T, N>, thrust's host/device vectors) at the `>` code token
// `gt`: T when it is a vector or complex type, else "". Its elements are reached by subscript.
std::string_view container_element(const migrate::FileMigration& file, std::size_t gt) {
  if (!file.is(gt, ">")) return {};
  std::size_t lt = gt;
  while (lt > 0 && !file.is(lt, "<") && !file.is(lt, ";") && !file.is(lt, "{") && !file.is(lt, "}")) --lt;
  if (!file.is(lt, "<") || lt == 0) return {};
  const std::string_view c = file.text(lt - 1);
  if (c != "vector" && c != "array" && c != "host_vector" && c != "device_vector") return {};
  std::size_t k = lt + 1;
  if (file.is(k, "const")) ++k;
  if (!file.is_identifier(k) || !vector_like(file.text(k)) || !(file.is(k + 1, ">") || file.is(k + 1, ","))) return {};
  return file.text(k);
}

}  // namespace

void vector_ops_pass(migrate::FileMigration& file) {
  if (file.project().migrated_by == "hip" || file.project().build_facts.user_vector_operators) return;
  // Names declared with a vector type: `float4 a`, `const float4& b`, `float4* p`, `int2 c[4]`.
  // Pointers (`float4* p`) count only through a subscript: `p + i` is pointer arithmetic.
  std::unordered_set<std::string_view> vec, pointers;
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    // `std::vector<float2> v(n)`: a container whose elements are vectors, used through subscripts
    if (file.is(ci, ">") && !file.in_directive(ci) && !container_element(file, ci).empty()) {
      std::size_t n = ci + 1;
      while (file.is(n, "&") || file.is(n, "const")) ++n;
      if (file.is_identifier(n) && (file.is(n + 1, "(") || file.is(n + 1, "{") || file.is(n + 1, ";") ||
                                    file.is(n + 1, "=") || file.is(n + 1, ",") || file.is(n + 1, ")")))
        pointers.insert(file.text(n));
    }
    if (!file.is_identifier(ci) || !vector_like(file.text(ci)) || file.in_directive(ci)) continue;
    std::size_t k = ci + 1;
    bool pointer = false;
    while (file.is(k, "const") || file.is(k, "*") || file.is(k, "&") || file.is(k, "__restrict__") ||
           file.is(k, "__restrict") || file.is(k, "volatile")) {
      pointer = pointer || file.is(k, "*");
      ++k;
    }
    if (file.is_identifier(k) && (file.is(k + 1, "=") || file.is(k + 1, ";") || file.is(k + 1, ",") ||
                                  file.is(k + 1, ")") || file.is(k + 1, "[") || file.is(k + 1, "{")))
      (pointer ? pointers : vec).insert(file.text(k));
  }
  if (vec.empty() && pointers.empty()) return;
  bool header_used = false;
  bool any_complex = false;
  for (std::size_t ci = 0; ci < file.code_size() && !any_complex; ++ci)
    any_complex = file.is_identifier(ci) && complex_type(file.text(ci));
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.in_directive(ci)) continue;
    if (!pointers.contains(file.text(ci)) && !vec.contains(file.text(ci))) continue;
    // The declaration in force: the nearest one before the use (names are reused across
    // functions: `uint4 v` in one, `float v` in the next).
    std::string_view type;  // the declared type of the name in force
    const auto declared = [&](std::size_t k) -> std::optional<std::pair<bool, bool>> {  // (vector, pointer)
      std::size_t gt = k;
      while (gt > 0 && (file.is(gt - 1, "&") || file.is(gt - 1, "const"))) --gt;
      if (gt > 0 && file.is(gt - 1, ">") &&
          (file.is(k + 1, "(") || file.is(k + 1, "{") || file.is(k + 1, ";") || file.is(k + 1, "=") ||
           file.is(k + 1, ",") || file.is(k + 1, ")"))) {
        type = container_element(file, gt - 1);
        if (!type.empty()) return std::make_pair(true, true);
      }
      if (!(file.is(k + 1, "=") || file.is(k + 1, ";") || file.is(k + 1, ",") || file.is(k + 1, ")") ||
            file.is(k + 1, "[") || file.is(k + 1, "{") || file.is(k + 1, ":")))
        return std::nullopt;
      std::size_t b = k;
      bool pointer = false;
      while (b > 0 && (file.is(b - 1, "*") || file.is(b - 1, "&") || file.is(b - 1, "const") ||
                       file.is(b - 1, "__restrict__") || file.is(b - 1, "__restrict") || file.is(b - 1, "volatile"))) {
        pointer = pointer || file.is(b - 1, "*");
        --b;
      }
      if (b == 0 || !(file.is_identifier(b - 1) || file.is(b - 1, ">"))) return std::nullopt;
      const std::string_view t = file.text(b - 1);
      if (t == "return" || t == "case" || t == "else" || t == "delete" || t == "throw" || t == "goto")
        return std::nullopt;
      type = t;
      return std::make_pair(vector_like(t), pointer);
    };
    std::optional<std::pair<bool, bool>> decl;
    for (std::size_t k = ci + 1; k-- > 0 && !decl;)
      if (file.text(k) == file.text(ci)) decl = declared(k);
    if (!decl || !decl->first) continue;
    const bool is_pointer = decl->second;
    if (file.is_member_name(ci)) continue;
    // The operand: the name, or the name with subscripts (`a[i]`); not a member (`a.x`).
    std::size_t end = ci;
    while (file.is(end + 1, "[")) {
      const std::size_t close = file.match_bracket(end + 1);
      if (close == migrate::npos) break;
      end = close;
    }
    if (file.is(end + 1, ".") || file.is(end + 1, "->")) continue;
    if (is_pointer && end == ci) continue;  // the pointer itself, not an element
    const bool after = end + 1 < file.code_size() && arithmetic(file.text(end + 1)) &&
                       !(file.is(end + 1, "&") && end == ci && file.is(ci - 1, "("));
    const bool before = ci > 0 && arithmetic(file.text(ci - 1)) &&
                        (file.is_identifier(ci - 2) || file.is(ci - 2, ")") || file.is(ci - 2, "]")) &&
                        !file.is(ci - 1, "*") && !file.is(ci - 1, "&");
    // `(a + b) * c`: a product with a parenthesised expression (the `before` test leaves `*` out,
    // which also reads as a dereference)
    const bool by_expression = !after && !before && complex_type(type) && ci >= 2 &&
                               (file.is(ci - 1, "*") || file.is(ci - 1, "/")) && file.is(ci - 2, ")");
    if (!after && !before && !by_expression) continue;
    if (complex_type(type)) {
      const std::string_view op = after ? file.text(end + 1) : file.text(ci - 1);
      if (op == "*" || op == "/" || op == "*=" || op == "/=") {
        // by a number: HIP scales the complex value, as the componentwise operator does
        if ((after && file.is_number(end + 2)) || (!after && ci >= 2 && file.is_number(ci - 2))) continue;
        // a name on the left: its own visit rewrote or reported the product (or it is a scalar's
        // scaling); an expression on the left (`(a + b) * c`) is reported here
        if (!after && !by_expression && (file.is_identifier(ci - 2) || file.is(ci - 2, "]"))) continue;
        // `a * b` of two complex names (or their elements): cuCmulf(a, b) / cuCdivf(a, b)
        const std::string_view left_type = type;
        const std::size_t r = end + 2;
        std::size_t rend = r;
        while (file.is_identifier(r) && file.is(rend + 1, "[")) {
          const std::size_t close = file.match_bracket(rend + 1);
          if (close == migrate::npos) break;
          rend = close;
        }
        const auto stops = [&](std::size_t k) {
          return file.is(k, ".") || file.is(k, "->") || file.is(k, "(") || file.is(k, "[") || file.is(k, "*") ||
                 file.is(k, "/") || file.is(k, "::");
        };
        bool rewritten = false;
        // `acc *= x`: `acc = cuCmulf(acc, x)`, where the left operand can be written twice (names,
        // numbers and subscripts only) and the statement ends after x
        const bool compound = op == "*=" || op == "/=";
        bool left_plain = true;
        for (std::size_t k = ci; k <= end; ++k)
          left_plain = left_plain && (file.is_identifier(k) || file.is_number(k) || file.is(k, "[") || file.is(k, "]"));
        if (after && (!compound || (left_plain && (file.is(rend + 1, ";") || file.is(rend + 1, ")")))) &&
            file.is_identifier(r) && !stops(rend + 1) && !stops(ci - 1)) {
          std::optional<std::pair<bool, bool>> rdecl;
          for (std::size_t k = r; k-- > 0 && !rdecl;)  // before the use: `a * b;` reads like a declaration
            if (file.text(k) == file.text(r)) rdecl = declared(k);
          const std::string_view right_type = type;
          const bool dbl = [](std::string_view t) { return t.find("ouble") != std::string_view::npos; }(left_type);
          const bool rdbl = right_type.find("ouble") != std::string_view::npos;
          if (rdecl && rdecl->first && complex_type(right_type) && dbl == rdbl && (!rdecl->second || rend > r)) {
            const std::string fn = std::string(op[0] == '*' ? "cuCmul" : "cuCdiv") + (dbl ? "" : "f");
            rewritten = compound ? file.replace_bytes(file.code(end).end, file.code(r).begin,
                                                      " = " + fn + "(" + std::string(file.span_text(ci, end)) + ", ") &&
                                       file.edits().insert(file.code(rend).end, ")")
                                 : file.insert_before(ci, fn + "(") &&
                                       file.replace_bytes(file.code(end).end, file.code(r).begin, ", ") &&
                                       file.edits().insert(file.code(rend).end, ")");
            if (rewritten)
              file.diag(Diag::ComplexProductCuda, Severity::Note, ci,
                        "'" + std::string(op) + "' of two " + std::string(left_type) + " values is HIP's complex " +
                            (op[0] == '*' ? "product" : "quotient") + ": written as " + (compound ? "a = " : "") + fn +
                            "(a, b)",
                        "");
          }
          type = left_type;
        }
        if (rewritten) continue;
        file.diag(Diag::ComplexProductCuda, Severity::Warning, ci,
                  "'" + std::string(op) + "' on '" + std::string(file.text(ci)) + "', a " + std::string(left_type) +
                      ": HIP's operator is the complex " + (op[0] == '*' ? "product" : "quotient") +
                      ", CUDA's complex types have none (and the vector operators of ferry/compat_cuda_vector.h "
                      "are componentwise)",
                  op[0] == '*' ? "write cuCmulf(a, b) (cuCmul for double)" : "write cuCdivf(a, b) (cuCdiv for double)");
        continue;
      }
    }
    if (header_used) {  // one note per file; the scan goes on for complex products
      if (!any_complex) return;
      continue;
    }
    header_used = true;
    file.diag(Diag::VectorOperatorCompat, Severity::Note, ci,
              "arithmetic on '" + std::string(file.text(ci)) +
                  "', a vector type: HIP defines the operators, CUDA does not; they come from "
                  "ferry/compat_cuda_vector.h",
              "");
    use_vector_operators_header(file);
  }
}

}  // namespace ferry::targets::cuda
