// Files' facts (analysis/facts.h) kept out of memory until they are read again. A tree's wave64
// planning reads every file's facts several times, far apart (the pre-pass sweep, the planner's
// project graph, its scans of device code, the hazard checks of each file's migration): held as
// objects from first to last, they made a tree's peak memory grow with the tree. Packed, they
// wait in a temporary file (ByteSpool), and memory holds one span per file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/facts.h"
#include "core/byte_spool.h"

namespace ferry::analysis {

// The facts as bytes, and back: every field but `project_constants` (a borrowed pointer, which
// the reader sets again). unpack_facts(pack_facts(f)) equals f field by field.
[[nodiscard]] std::string pack_facts(const FileFacts& facts);
[[nodiscard]] FileFacts unpack_facts(std::string_view bytes);

// Facts by id, in a temporary file. Not thread-safe: callers lock.
class FactsSpool {
 public:
  FactsSpool() : bytes_("the wave64 planner's facts") {}
  // Keeps `facts`; returns its id (0, 1, 2, ... in the order kept).
  std::size_t put(const FileFacts& facts);
  // Replaces the facts of `id`.
  void replace(std::size_t id, const FileFacts& facts);
  // The facts of `id`, with `project_constants` null.
  [[nodiscard]] FileFacts get(std::size_t id) const;
  [[nodiscard]] std::size_t size() const { return at_.size(); }

 private:
  ByteSpool bytes_;
  std::vector<ByteSpool::Span> at_;
};

}  // namespace ferry::analysis
