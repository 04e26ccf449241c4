// Lists of values for ids 0, 1, 2, ... kept in one array with one offset per id (a compressed
// sparse row): the wave64 planner's per-function links. A std::vector per function costs 24 bytes
// before its first element, and most functions of a tree link to nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ferry::analysis::wave64_plan {

template <class T>
class FlatLists {
 public:
  // Starts the list of the next id (0, then 1, ...); add() appends to it.
  void open() {
    if (at_.empty()) at_.push_back(0);
    else at_.push_back(at_.back());
  }
  // Appends to the list opened last.
  void add(const T& value) {
    values_.push_back(value);
    ++at_.back();
  }
  // Keeps, in the list opened last, each value once where it was first seen. `seen` has a false
  // entry per value the list can hold (T an index type), and is left all false.
  void keep_first_seen(std::vector<bool>& seen) {
    const std::size_t from = at_.size() > 1 ? at_[at_.size() - 2] : 0;
    std::size_t kept = from;
    for (std::size_t i = from; i < values_.size(); ++i)
      if (!seen[values_[i]]) {
        seen[values_[i]] = true;
        values_[kept++] = values_[i];
      }
    values_.resize(kept);
    at_.back() = static_cast<std::uint32_t>(kept);
    for (std::size_t i = from; i < kept; ++i) seen[values_[i]] = false;
  }
  // Lists 0..n-1 at once, from the (list, value) pairs `each(emit)` emits, emitted twice alike
  // (once to count them): each list's values in the order emitted.
  template <class Each>
  void build(std::size_t n, const Each& each) {
    at_.assign(n, 0);
    each([&](std::size_t list, const T&) { ++at_[list]; });
    std::vector<std::uint32_t> next(n, 0);  // where the next value of each list goes
    for (std::size_t i = 0; i < n; ++i) {
      next[i] = i == 0 ? 0 : at_[i - 1];
      at_[i] += next[i];
    }
    values_.assign(n == 0 ? 0 : at_[n - 1], T{});
    each([&](std::size_t list, const T& value) { values_[next[list]++] = value; });
  }
  // Trims the arrays to their size (after the last list).
  void shrink() {
    values_.shrink_to_fit();
    at_.shrink_to_fit();
  }
  [[nodiscard]] std::size_t size() const { return at_.size(); }  // lists opened
  [[nodiscard]] std::span<const T> operator[](std::size_t id) const {
    const std::uint32_t from = id == 0 ? 0 : at_[id - 1];
    return {values_.data() + from, at_[id] - from};
  }

 private:
  std::vector<T> values_;
  std::vector<std::uint32_t> at_;  // per list, the end of its values (its start: the previous end)
};

}  // namespace ferry::analysis::wave64_plan
