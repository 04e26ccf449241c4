// A set of non-overlapping replacements over one buffer, and the line map of their result.
//
// Passes propose edits in any order; the first edit to claim a byte range wins and later
// overlapping proposals are refused (callers check the return value). Applying keeps edits in
// source order; insertions at the same offset keep the order in which they were added.
#pragma once

#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::rewrite {

struct Edit {
  std::uint32_t begin;
  std::uint32_t end;  // == begin for an insertion
  std::string replacement;
  std::uint32_t seq;  // order of addition, to keep insertions stable
};

// For each line of the output (index 0 = line 1), the 1-based line of the original it came
// from. Lines produced inside a replacement map to the line where the replacement began.
struct LineMap {
  std::vector<std::uint32_t> out_to_orig;
  // Lines of the output that an edit produced or touched (1-based), sorted.
  std::vector<std::uint32_t> changed_out_lines;

  [[nodiscard]] std::uint32_t original_line(std::uint32_t out_line) const {
    if (out_line == 0 || out_to_orig.empty()) return out_line;
    if (out_line > out_to_orig.size()) return out_to_orig.back();
    return out_to_orig[out_line - 1];
  }
  [[nodiscard]] bool is_changed(std::uint32_t out_line) const;
};

class EditSet {
 public:
  // Replaces [begin, end) with `text`. Returns false, and changes nothing, when the range
  // overlaps an edit already in the set (touching ranges do not overlap).
  bool replace(std::uint32_t begin, std::uint32_t end, std::string text);
  bool insert(std::uint32_t at, std::string text) { return replace(at, at, std::move(text)); }

  [[nodiscard]] bool overlaps(std::uint32_t begin, std::uint32_t end) const;
  [[nodiscard]] bool empty() const { return edits_.empty(); }
  [[nodiscard]] std::size_t size() const { return edits_.size(); }
  [[nodiscard]] const std::vector<Edit>& edits() const;  // sorted
  // The first edit (in order) that replaces exactly [begin, end) (an insertion when they are
  // equal), or null. Reads the set itself: no sorted copy is made.
  [[nodiscard]] const Edit* find(std::uint32_t begin, std::uint32_t end) const;
  // Calls `f(edit)`, in order, for each edit that reaches into (begin, end): it ends after `begin`
  // and starts before `end`.
  template <class F>
  void for_each_reaching(std::uint32_t begin, std::uint32_t end, F&& f) const {
    // Edits never overlap, so sorted by start their ends never decrease: the edits that end after
    // `begin` follow the last that does not.
    auto it = edits_.lower_bound(begin);
    while (it != edits_.begin() && std::prev(it)->end > begin) --it;
    for (; it != edits_.end() && it->begin < end; ++it)
      if (it->end > begin) f(*it);
  }

  // Applies the edits to `src` (the buffer they were computed on). Fills `map` if given.
  [[nodiscard]] std::string apply(std::string_view src, LineMap* map = nullptr) const;

 private:
  struct Order {
    bool operator()(const Edit& a, const Edit& b) const {
      if (a.begin != b.begin) return a.begin < b.begin;
      if (a.end != b.end) return a.end < b.end;  // insertions before a replacement at the same start
      return a.seq < b.seq;
    }
    // A start offset against an edit's start: lower_bound(at) is the first edit starting at `at`
    // or after, found without building an Edit (and its string) to compare with.
    using is_transparent = void;
    bool operator()(const Edit& a, std::uint32_t at) const { return a.begin < at; }
    bool operator()(std::uint32_t at, const Edit& b) const { return at < b.begin; }
  };
  // Ordered by (begin, end, seq). A tree, not a sorted vector: passes add edits all over a file,
  // and a vector's insert in the middle made a large file's migration quadratic.
  std::set<Edit, Order> edits_;
  mutable std::vector<Edit> sorted_;  // edits() as a vector, rebuilt when stale
  mutable bool stale_ = false;
  std::uint32_t next_seq_ = 0;
};

}  // namespace ferry::rewrite
