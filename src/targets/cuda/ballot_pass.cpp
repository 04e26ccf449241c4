#include <string>
#include <vector>

#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;
using migrate::npos;

bool is_bit_function(std::string_view t) {
  return t == "__popc" || t == "__popcll" || t == "__ffs" || t == "__ffsll" || t == "__clz" || t == "__clzll" ||
         t == "__brev" || t == "__brevll";
}

bool is_type_word(std::string_view t) {
  return t == "unsigned" || t == "signed" || t == "long" || t == "int" || t == "short" || t == "char" || t == "bool" ||
         t == "const" || t == "uint64_t" || t == "uint32_t" || t == "int64_t" || t == "int32_t" || t == "std" ||
         t == "::" || t == "size_t";
}

// The call's value is converted to a type written in the code, so a 64-bit cast changes nothing:
// `T x = CALL;`, `x = CALL;` (not after `auto`), `return CALL;`, `__popcll(CALL)`, `(T)CALL`.
bool value_is_converted(const FileMigration& f, std::size_t ci, std::size_t close) {
  if (ci == 0) return false;
  const std::string_view next = f.is(close + 1, ";") ? ";" : (f.is(close + 1, ")") ? ")" : "");
  const std::string_view prev = f.text(ci - 1);
  if ((prev == "=" || prev == "return") && next == ";") {
    if (prev == "return") return true;
    // `auto m = CALL;` and `auto& m = ...` keep CUDA's 32-bit type.
    for (std::size_t i = ci - 1; i > 0; --i) {
      const std::string_view t = f.text(i - 1);
      if (t == "auto" || t == "decltype") return false;
      if (t == ";" || t == "{" || t == "}" || t == "," || t == "(") break;
    }
    return true;
  }
  if (prev == "(" && next == ")" && ci >= 2 && is_bit_function(f.text(ci - 2))) return true;
  if (prev == ")") {
    // A C-style cast: `(unsigned long long)CALL`.
    std::size_t i = ci - 2;
    bool words = false;
    while (i != npos && i > 0 && is_type_word(f.text(i))) --i, words = true;
    if (words && f.is(i, "(")) return true;
  }
  return false;
}

}  // namespace

void ballot_pass(FileMigration& file) {
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.is(ci, "__ballot") || !file.is(ci + 1, "(")) continue;
    if (file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci)) continue;
    const std::size_t close = file.match_bracket(ci + 1);
    const std::vector<migrate::ArgRange> args = file.call_args(ci + 1);
    if (close == npos || args.size() != 1 || args[0].empty()) continue;
    const bool cast = !value_is_converted(file, ci, close);
    const std::string prefix = cast ? "(unsigned long long)" : "";
    bool ok;
    if (args[0].first == args[0].last && file.is(args[0].first, "1")) {
      ok = file.replace(ci, close, prefix + "__activemask()");
    } else {
      // Only `__ballot(` is rewritten, so renames inside the predicate still apply.
      ok = file.replace_bytes(file.code(ci).begin, file.code(args[0].first).begin,
                              prefix + "__ballot_sync(0xffffffff, ");
    }
    if (ok) file.count_converted("device");
  }
}

}  // namespace ferry::targets::cuda
