// Cooperative groups' thread_block_tile::meta_group_rank() and meta_group_size(): HIP has them
// from ROCm 5.7 (rules/hip_members.tsv). For an older release, on a tile the function makes of a
// thread block, `auto tile = cg::tiled_partition<N>(cta)` with `cta` a `thread_block` (declared so,
// a parameter, or `auto cta = cg::this_thread_block()`), they are what CUDA defines them to be:
//   tile.meta_group_rank()   ->  (cta.thread_rank() / (N))           the tile's index in the block
//   tile.meta_group_size()   ->  ((cta.size() + (N) - 1) / (N))      the number of tiles
// (cuda-samples reduction, shfl_scan, conjugateGradientMultiBlockCG/MultiDeviceCG). A tile of
// another tile, or one whose parent Ferry cannot read, keeps the call (verify: target-gap).
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/coop_groups.h"
#include "analysis/names.h"
#include "rewrite/roundtrip_record.h"
#include "targets/hip/passes.h"

namespace ferry::targets::hip {
namespace {

using lex::npos;

struct Tile {
  std::size_t decl;    // the tile's name at its declaration
  std::string parent;  // the block expression, as written
  std::string size;    // N, as written
  std::size_t block;   // the function body it is declared in
};

}  // namespace

void tile_meta_pass(migrate::FileMigration& file) {
  const std::vector<std::uint32_t> uses = file.occurrences({"meta_group_rank", "meta_group_size"});
  if (uses.empty()) return;
  // Names of thread blocks: `[cg::]thread_block [const] [&] NAME` and `NAME = [cg::]this_thread_block()`.
  // The start of the `[ns::]...NAME` chain that ends at code token `at`.
  auto chain_start = [&](std::size_t at) {
    while (at >= 2 && file.is(at - 1, "::") && file.is_identifier(at - 2)) at -= 2;
    return at;
  };
  std::unordered_set<std::string_view> blocks;
  for (const std::size_t ci : file.occurrences("thread_block")) {
    if (ci + 2 >= file.code_size() || file.is(ci + 1, "(")) continue;
    std::size_t j = ci + 1;
    while (file.is(j, "const") || file.is(j, "&")) ++j;
    if (file.is_identifier(j) &&
        (file.is(j + 1, "=") || file.is(j + 1, ";") || file.is(j + 1, ",") || file.is(j + 1, ")")))
      blocks.insert(file.text(j));
  }
  for (const std::size_t b : file.occurrences("this_thread_block")) {
    const std::size_t j = chain_start(b);
    if (j < 2 || !file.is(j - 1, "=") || !file.is_identifier(j - 2)) continue;
    if (analysis::this_thread_block_at(file, j) != npos) blocks.insert(file.text(j - 2));
  }
  // Tiles of a block: `NAME = [cg::]tiled_partition<N>(BLOCK)`, in file order.
  std::unordered_map<std::string_view, std::vector<Tile>> tiles;
  for (const std::size_t fn : file.occurrences("tiled_partition")) {
    if (file.is(fn + 1, "::")) continue;  // not the chain's last name: its last one is visited
    const std::size_t j = chain_start(fn);
    if (j < 2 || !file.is(j - 1, "=")) continue;
    const std::size_t ci = j - 2;
    if (!file.is_identifier(ci) || file.is_member_or_qualified(ci)) continue;
    const auto tp = analysis::tiled_partition_at(file, ci + 2, file.code_size());
    if (!tp) continue;
    const std::size_t a = tp->open + 1;  // the parent's first token
    std::string parent;
    if (tp->close == a + 1 && file.is_identifier(a) && blocks.contains(file.text(a))) {
      parent = std::string(file.text(a));
    } else if (const std::size_t b = analysis::this_thread_block_at(file, a); b != npos && tp->close == b + 3) {
      parent = std::string(file.source().substr(file.code(a).begin, file.code(b + 2).end - file.code(a).begin));
    } else {
      continue;
    }
    std::string size(file.source().substr(file.code(tp->size_first).begin,
                                          file.code(tp->size_last).end - file.code(tp->size_first).begin));
    if (tp->size_last != tp->size_first) size = "(" + size + ")";
    tiles[file.text(ci)].push_back({ci, parent, size, 0});
  }
  if (tiles.empty()) return;
  // The function bodies: the outermost `{` after a `)` (not a namespace's or a class's) to its
  // `}`, as [first, last] code indices in file order (a body left open runs to the end). A code
  // token's body is its number + 1 in this list, 0 outside any.
  std::vector<std::pair<std::size_t, std::size_t>> bodies;
  {
    std::vector<std::size_t> open_braces;  // for each open `{`: its body id, or 0
    std::size_t current = 0;
    // Only braces matter: the other tokens are passed on their keys alone.
    const std::uint64_t lbrace = lex::short_key("{"), rbrace = lex::short_key("}");
    for (std::size_t ci = 0, n = file.code_size(); (ci = analysis::detail::next_key(file, ci, n, lbrace, rbrace)) < n;
         ++ci) {
      const std::uint64_t key = file.key(ci);
      if (key == lbrace) {
        std::size_t id = 0;
        if (current == 0 && ci > 0 && file.is(ci - 1, ")")) {
          bodies.push_back({ci, file.code_size() - 1});
          id = current = bodies.size();
        }
        open_braces.push_back(id);
      }
      if (key == rbrace && !open_braces.empty()) {
        if (open_braces.back() != 0 && open_braces.back() == current) {
          bodies[current - 1].second = ci;
          current = 0;
        }
        open_braces.pop_back();
      }
    }
  }
  auto body_of = [&](std::size_t ci) -> std::size_t {
    const auto it = std::upper_bound(bodies.begin(), bodies.end(), std::make_pair(ci, file.code_size()));
    if (it == bodies.begin()) return 0;
    const auto& body = *(it - 1);
    return ci <= body.second ? static_cast<std::size_t>(it - bodies.begin()) : 0;
  };
  for (auto& [name, list] : tiles)
    for (Tile& t : list) t.block = body_of(t.decl);
  for (const std::size_t ci : uses) {
    if (ci < 2 || ci + 2 >= file.code_size()) continue;
    const bool rank = file.is(ci, "meta_group_rank"), count = file.is(ci, "meta_group_size");
    if ((!rank && !count) || !file.is(ci - 1, ".") || !file.is_identifier(ci - 2) || !file.is(ci + 1, "(") ||
        !file.is(ci + 2, ")") || file.excluded(ci) || file.touched(ci) || file.is_member_or_qualified(ci - 2))
      continue;
    const auto it = tiles.find(file.text(ci - 2));
    if (it == tiles.end()) continue;
    // The nearest declaration before the use, in the same function.
    const Tile* tile = nullptr;
    for (const Tile& t : it->second)
      if (t.decl < ci && t.block == body_of(ci) && t.block != 0) tile = &t;
    if (!tile) continue;
    const std::string text = rank ? "(" + tile->parent + ".thread_rank() / " + tile->size + ")"
                                  : "((" + tile->parent + ".size() + " + tile->size + " - 1) / " + tile->size + ")";
    // Recorded, so that HIP -> CUDA gives the member call back (rewrite/roundtrip_record.h, span).
    const std::string_view original = file.span_text(ci - 2, ci + 2);
    const std::string recorded = rewrite::record::recordable(original) ? " " + rewrite::record::make(original) : "";
    if (file.replace(ci - 2, ci + 2, text + recorded)) file.count_converted("device");
  }
}

}  // namespace ferry::targets::hip
