// Cooperative-groups tile shuffles of a vector value: `tile.shfl_xor(r.y, 1)` with `r.y` a uint4.
// CUDA's thread_block_tile::shfl* are templates over any type; HIP's (5.2 and later releases
// checked) static_assert an integer or floating type. When the file declares the value (a name,
// or a member of a struct the file defines) with a CUDA vector type (uint4, float2, ...), the
// call becomes `ferry_tile_shfl_xor(tile, r.y, 1)` from Ferry's compat header tile_shfl.h, which
// shuffles it word by word through the tile's own shfl_xor (FRY1302 names the header). Values of
// other types are left to HIP's member, which takes every scalar; a value whose type cannot be
// read stays as written.
#include <algorithm>
#include <regex>
#include <string>

#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using lex::npos;

bool is_vector_type(std::string_view t) {
  static const std::regex kVector("(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]");
  return std::regex_match(t.begin(), t.end(), kVector);
}

bool is_qualifier(const migrate::FileMigration& file, std::size_t i) {
  return file.is(i, "const") || file.is(i, "volatile") || file.is(i, "static") || file.is(i, "struct") ||
         file.is(i, "__shared__") || file.is(i, "__device__") || file.is(i, "auto") || file.is(i, "&") ||
         file.is(i, "*");
}

// The type word of the declarator `name` at `at`: back over the other declarators of the same
// declaration (`uint4 x, y`) to the first word after `;`, `{`, `}` — or after `(` / `,` for a
// parameter. Empty when none.
std::string_view type_of_declarator(const migrate::FileMigration& file, std::size_t at) {
  std::size_t i = at;
  int depth = 0;
  while (i > 0) {
    --i;
    if (file.is(i, ")") || file.is(i, "]")) ++depth;
    else if (file.is(i, "(") || file.is(i, "[")) {
      if (depth == 0) break;  // a parameter list
      --depth;
    } else if (depth == 0 && (file.is(i, ";") || file.is(i, "{") || file.is(i, "}"))) break;
  }
  const bool param = file.is(i, "(");
  if (param) {
    // The nearest `,` or `(` before `at` at this depth.
    for (std::size_t j = at; j-- > i;)
      if (file.is(j, ",") || file.is(j, "(")) {
        i = j;
        break;
      }
  }
  for (std::size_t j = i + 1; j < at; ++j) {
    if (is_qualifier(file, j)) continue;
    if (file.is_identifier(j)) {
      // `cg::thread_block`: the last part.
      while (file.is(j + 1, "::") && file.is_identifier(j + 2)) j += 2;
      return file.text(j);
    }
    return {};
  }
  return {};
}

// Where `name` is declared in [from, to): an identifier followed by `;`, `,`, `=`, `)`, `[` and
// preceded by a type word, `&`, `*` or `,`. The last such before `to`.
std::size_t find_declarator(const migrate::FileMigration& file, std::size_t from, std::size_t to,
                            std::string_view name) {
  // Backwards from `to`: the nearest declaration is usually a few lines up, so a file with many
  // tile shuffles is not read from its start once per shuffle.
  // Through the name's occurrences (ascending): a file with many tile shuffles of undeclared
  // names is not read token by token once per shuffle.
  const std::span<const std::uint32_t> uses = file.occurrences(name);
  for (auto it = std::lower_bound(uses.begin(), uses.end(), to); it != uses.begin();) {
    const std::size_t i = *--it;
    if (i <= from) break;
    if (file.code(i).in_directive) continue;
    if (!(file.is(i + 1, ";") || file.is(i + 1, ",") || file.is(i + 1, "=") || file.is(i + 1, ")") ||
          file.is(i + 1, "[")))
      continue;
    if (!(file.is_identifier(i - 1) || file.is(i - 1, "&") || file.is(i - 1, "*") || file.is(i - 1, ","))) continue;
    if (file.is(i - 1, "return")) continue;
    return i;
  }
  return npos;
}

// The type of `v` or `v.m` (tokens [first, last]) by the file's declarations; empty when unknown.
std::string_view value_type(const migrate::FileMigration& file, std::size_t first, std::size_t last, std::size_t use) {
  if (!file.is_identifier(first)) return {};
  const std::size_t decl = find_declarator(file, 0, use, file.text(first));
  if (decl == npos) return {};
  const std::string_view type = type_of_declarator(file, decl);
  if (first == last) return type;
  if (last != first + 2 || !file.is(first + 1, ".") || !file.is_identifier(last) || type.empty()) return {};
  // A member of a struct the file defines: `struct type { ... }`.
  for (const std::size_t i : file.occurrences(type)) {
    if (i < 1 || i + 1 >= file.code_size()) continue;
    if (!(file.is(i - 1, "struct") || file.is(i - 1, "class")) || !file.is(i + 1, "{")) continue;
    const std::size_t close = file.match_bracket(i + 1);
    if (close == npos) return {};
    const std::size_t m = find_declarator(file, i + 1, close, file.text(last));
    return m == npos ? std::string_view() : type_of_declarator(file, m);
  }
  return {};
}

}  // namespace

void tile_shuffle_pass(migrate::FileMigration& file) {
  for (const std::size_t ci : file.occurrences({"shfl", "shfl_up", "shfl_down", "shfl_xor"})) {
    if (ci < 2) continue;
    const bool shfl =
        file.is(ci, "shfl") || file.is(ci, "shfl_up") || file.is(ci, "shfl_down") || file.is(ci, "shfl_xor");
    if (!shfl || !file.is(ci - 1, ".") || !file.is_identifier(ci - 2) || !file.is(ci + 1, "(") ||
        file.code(ci).in_directive || file.excluded(ci) || file.touched(ci))
      continue;
    const std::vector<lex::ArgRange> args = file.call_args(ci + 1);
    if (args.size() != 2 || args[0].empty()) continue;
    const std::string_view type = value_type(file, args[0].first, args[0].last, ci);
    if (!is_vector_type(type)) continue;
    const std::string fn = "ferry_tile_" + std::string(file.text(ci));
    // `tile.shfl_xor(` -> `ferry_tile_shfl_xor(tile, `
    if (!file.replace_bytes(file.code(ci - 2).begin, file.code(ci + 1).end,
                            fn + "(" + std::string(file.text(ci - 2)) + ", "))
      continue;
    file.count_converted("warp");
    file.require_compat("tile_shfl", fn, ci - 2);
  }
}

}  // namespace ferry::targets::hip
