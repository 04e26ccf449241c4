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

// What a reader that needs only the shape of a file's facts reads of them: the wave64 pre-pass
// asks whether the file names another file's constant, the planner counts functions and learns
// every constant's name before its sweep. The pack begins with it (its first head_size() bytes),
// so it is read without unpacking the rest.
struct FactsHead {
  std::size_t functions = 0;                // FileFacts::functions.size()
  std::vector<std::string> constant_names;  // the keys of FileFacts::constants, in their (sorted) order
  [[nodiscard]] bool defines(std::string_view name) const;
};
[[nodiscard]] FactsHead head_of(const FileFacts& facts);
// The head of a pack, read from its first bytes (the whole pack, or at least head_size(pack)).
[[nodiscard]] FactsHead unpack_head(std::string_view bytes);
[[nodiscard]] std::size_t head_size(std::string_view pack);

// About how many bytes of heap `facts` hold (their objects, strings and tree nodes): what a cache
// of unpacked facts counts against its budget.
[[nodiscard]] std::size_t heap_bytes(const FileFacts& facts);

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
  // Their head alone (only its bytes are read).
  [[nodiscard]] FactsHead head(std::size_t id) const;
  [[nodiscard]] std::size_t size() const { return at_.size(); }

 private:
  struct At {
    ByteSpool::Span span;
    std::size_t head = 0;  // head_size() of the pack
  };
  At keep(const FileFacts& facts);

  ByteSpool bytes_;
  std::vector<At> at_;
};

}  // namespace ferry::analysis
