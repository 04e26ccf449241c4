// Cooperative-groups calls read from tokens, shared by the wave64 planner (its one-warp-per-
// wavefront form accepts a block group and tiles of it) and the hip target's tile_meta pass
// (meta_group_rank/size computed from a tile's block).
#pragma once

#include <cstddef>
#include <optional>

#include "lex/code_view.h"

namespace ferry::analysis {

// `[ns::]this_thread_block()` starting at `j` (`cg::`, `cooperative_groups::` or none): the index
// of `this_thread_block`, or npos. Its `)` is that index + 2.
[[nodiscard]] std::size_t this_thread_block_at(const lex::CodeView& v, std::size_t j);

// `[ns::]tiled_partition<SIZE>(PARENT)` starting at `j`, the `>` found before `limit`.
struct TiledPartition {
  std::size_t fn;                     // `tiled_partition`
  std::size_t size_first, size_last;  // SIZE's tokens
  std::size_t open, close;            // the parentheses around PARENT
};
[[nodiscard]] std::optional<TiledPartition> tiled_partition_at(const lex::CodeView& v, std::size_t j,
                                                               std::size_t limit);

}  // namespace ferry::analysis
