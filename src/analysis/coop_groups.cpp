#include "analysis/coop_groups.h"

namespace ferry::analysis {
namespace {

// `[ns::]NAME` at `j`: the index of NAME, or npos.
std::size_t qualified(const lex::CodeView& v, std::size_t j, std::string_view name) {
  while (v.is_identifier(j) && v.is(j + 1, "::")) j += 2;
  return v.is(j, name) ? j : lex::npos;
}

}  // namespace

std::size_t this_thread_block_at(const lex::CodeView& v, std::size_t j) {
  const std::size_t b = qualified(v, j, "this_thread_block");
  return b != lex::npos && v.is(b + 1, "(") && v.is(b + 2, ")") ? b : lex::npos;
}

std::optional<TiledPartition> tiled_partition_at(const lex::CodeView& v, std::size_t j, std::size_t limit) {
  const std::size_t fn = qualified(v, j, "tiled_partition");
  if (fn == lex::npos || !v.is(fn + 1, "<")) return std::nullopt;
  std::size_t k = fn + 2;
  while (k < limit && !v.is(k, ">") && !v.is(k, ";")) ++k;
  if (!v.is(k, ">") || k == fn + 2 || !v.is(k + 1, "(")) return std::nullopt;
  const std::size_t close = v.partner(k + 1);
  if (close == lex::npos) return std::nullopt;
  return TiledPartition{fn, fn + 2, k - 1, k + 1, close};
}

}  // namespace ferry::analysis
