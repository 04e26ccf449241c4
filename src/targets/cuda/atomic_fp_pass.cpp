// HIP has atomicMax/atomicMin for float and double; CUDA only for integer types. A call whose
// first argument is not provably an integer pointer goes to ferry::cuda_compat::atomicMax/Min
// (ferry/compat_cuda.h): a CAS loop for floating point, CUDA's own atomic for integers.
#include <string>

#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

bool is_integer_word(std::string_view t) {
  return t == "int" || t == "unsigned" || t == "long" || t == "short" || t == "char" || t == "signed" ||
         t == "uint32_t" || t == "int32_t" || t == "uint64_t" || t == "int64_t" || t == "size_t" || t == "uint" ||
         t == "ulong" || t == "ull" || t == "uint16_t" || t == "int16_t";
}
bool is_floating_word(std::string_view t) {
  return t == "float" || t == "double" || t == "__half" || t == "half" || t == "__hip_bfloat16" ||
         t == "hip_bfloat16" || t == "__nv_bfloat16";
}

// The identifier an address argument is built on: `&x[i]`, `x + i`, `p`, `&s.m` (s).
std::size_t base_identifier(const FileMigration& f, const migrate::ArgRange& a) {
  for (std::size_t k = a.first; k <= a.last && k < f.code_size(); ++k)
    if (f.is_identifier(k)) return k;
  return npos;
}

// What the file declares `name` as: +1 an integer type, -1 floating point, 0 unknown.
int declared_kind(const FileMigration& f, std::string_view name) {
  int kind = 0;
  for (std::size_t ci = 1; ci < f.code_size(); ++ci) {
    if (!f.is_identifier(ci) || f.text(ci) != name) continue;
    std::size_t k = ci - 1;
    while (k > 0 &&
           (f.is(k, "*") || f.is(k, "&") || f.is(k, "const") || f.is(k, "volatile") || f.is(k, "__restrict__")))
      --k;
    if (k == ci - 1 && !f.is_identifier(k)) continue;  // a use, not a declaration
    const std::string_view t = f.text(k);
    if (is_floating_word(t)) return -1;
    if (is_integer_word(t)) kind = 1;
  }
  return kind;
}

bool defines_own(const FileMigration& f, std::string_view fn) {
  for (std::size_t ci = 1; ci + 1 < f.code_size(); ++ci) {
    if (!f.is(ci, fn) || !f.is(ci + 1, "(") || f.is_member_or_qualified(ci)) continue;
    if (!(f.is_identifier(ci - 1) || f.is(ci - 1, "*"))) continue;  // `float atomicMax(` is a declaration
    const std::size_t close = f.match_bracket(ci + 1);
    if (close != npos && (f.is(close + 1, "{") || f.is(close + 1, ";"))) return true;
  }
  return false;
}

// `(unsigned int *)&x`, `(int*)p`, `reinterpret_cast<unsigned long long*>(p)`: an address cast to
// a pointer to an integer type at the start of the argument.
bool integer_pointer_cast(const FileMigration& f, const migrate::ArgRange& a) {
  std::size_t k = a.first;
  if (f.is(k, "reinterpret_cast") || f.is(k, "static_cast")) {
    if (!f.is(k + 1, "<")) return false;
    k += 2;
  } else if (f.is(k, "(")) {
    ++k;
  } else {
    return false;
  }
  bool integer = false;
  while (k <= a.last && (f.is(k, "const") || f.is(k, "volatile") || (f.is_identifier(k) && is_integer_word(f.text(k)))))
    integer |= !f.is(k, "const") && !f.is(k, "volatile"), ++k;
  return integer && k <= a.last && f.is(k, "*") && (f.is(k + 1, ")") || f.is(k + 1, ">"));
}

}  // namespace

void atomic_fp_pass(FileMigration& file) {
  // The way back of a round trip: the CUDA original compiled with CUDA's own atomicMax/Min.
  if (file.project().migrated_by == "hip") return;
  for (std::string_view fn : {std::string_view("atomicMax"), std::string_view("atomicMin")}) {
    bool own = false, own_known = false;
    for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
      if (!file.is(ci, fn) || !file.is(ci + 1, "(") || file.excluded(ci) || file.touched(ci)) continue;
      if (file.is_member_or_qualified(ci) || (ci > 0 && file.is(ci - 1, "::"))) continue;
      if (ci > 0 && (file.is_identifier(ci - 1) || file.is(ci - 1, "*"))) continue;  // its own declaration
      if (!own_known) own = defines_own(file, fn), own_known = true;
      if (own) break;  // the file brings its own float overload
      const auto args = file.call_args(ci + 1);
      if (args.size() != 2) continue;
      if (integer_pointer_cast(file, args[0])) continue;  // an integer atomic: CUDA has it
      const std::size_t base = base_identifier(file, args[0]);
      if (base != npos && declared_kind(file, file.text(base)) == 1) continue;  // an integer atomic: CUDA has it
      if (!file.replace(ci, ci, "ferry::cuda_compat::" + std::string(fn))) continue;
      use_compat_header(file);
      file.count_converted("device");
      file.diag(Diag::AtomicFloatCompat, Severity::Note, ci,
                std::string(fn) + " on a value Ferry cannot prove to be an integer: CUDA has no float/double " +
                    std::string(fn) + ", ferry::cuda_compat::" + std::string(fn) +
                    " is a compare-and-swap loop for them and CUDA's atomic for integers",
                "");
    }
  }
}

}  // namespace ferry::targets::cuda
