// Brace initialisers of __half_raw and __half2_raw: `__half_raw{0xFBFF}`, `__half2_raw r = {a, b}`.
//
// CUDA's __half_raw is `struct { unsigned short x; }` (and __half2_raw `{ x, y }`), so a brace
// list gives the bits. HIP's are a union whose first member is `_Float16 data` (`_Float16_2` for
// __half2_raw), with the bits as `x` (`x`, `y`) beside it: the same list initialises the
// floating-point member, which is the wrong value and, for a constant such as 0xFBFF that no half
// holds exactly, "constant expression evaluates to 64511 which cannot be narrowed to type
// '_Float16'". Naming the members, `__half_raw{.x = 0xFBFF}`, gives the bits in both (clang takes
// designators of an anonymous union's members; standard from C++20, an extension before it).
// A list that already designates, is empty, or has more elements than the members is left alone.
// The list keeps a round-trip record of its CUDA text, a brace span (rewrite/roundtrip_record.h):
// `__half_raw{.x = 0xFBFF} /* ferry-cuda: {0xFBFF} */`, restored by the cuda target.
#include <string>
#include <vector>

#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {

void fp16_raw_init_pass(migrate::FileMigration& file) {
  std::size_t resume = 0;  // past the initialiser just rewritten
  for (const std::size_t at : file.occurrences({"__half_raw", "__half2_raw"})) {
    if (at < resume) continue;
    std::size_t ci = at;
    if (!file.is_identifier(ci) || file.is_member_or_qualified(ci) || file.excluded(ci)) continue;
    const bool pair = file.is(ci, "__half2_raw");
    if (!pair && !file.is(ci, "__half_raw")) continue;
    if (ci > 0 && (file.is(ci - 1, "struct") || file.is(ci - 1, "union") || file.is(ci - 1, "class") ||
                   file.is(ci - 1, "operator")))
      continue;  // a definition of the type, or a conversion to it
    // `T{...}`, `T name{...}`, `T name = {...}` (after const/constexpr qualifiers of the name)
    std::size_t open = ci + 1;
    if (file.is_identifier(open)) {
      ++open;
      if (file.is(open, "=")) ++open;
    }
    if (!file.is(open, "{")) continue;
    const std::size_t close = file.match_bracket(open);
    if (close == migrate::npos || close == open + 1 || file.excluded(close)) continue;
    const std::vector<migrate::ArgRange> items = file.call_args(open);
    if (items.empty() || items.size() > (pair ? 2u : 1u) || file.is(open + 1, ".")) continue;
    bool ok = true;
    for (const migrate::ArgRange& a : items) ok = ok && !a.empty() && !file.touched(a.first);
    if (!ok) continue;
    const std::string original(
        file.source().substr(file.code(open).begin, file.code(close).end - file.code(open).begin));
    file.insert_before(items[0].first, ".x = ");
    if (items.size() == 2) file.insert_before(items[1].first, ".y = ");
    if (rewrite::record::recordable(original) && original.find('\n') == std::string::npos)
      file.edits().insert(file.code(close).end, " " + rewrite::record::make(original));
    file.count_converted("fp16");
    resume = close + 1;
  }
}

}  // namespace ferry::targets::hip
