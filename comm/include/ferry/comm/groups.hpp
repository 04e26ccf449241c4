// Process groups of a data x tensor x pipeline layout.
// Ranks are laid out tensor-fastest: rank = (pipeline * data + d) * tensor + t. A rank belongs
// to one tensor group (same p, d), one data group (same p, t) and one pipeline group (same d, t).
// build_groups makes this rank's three groups with one MPI_Comm_split per dimension (3 collective
// calls in all); GroupCache keeps them per layout so asking again costs nothing.
// build_groups_naive is the baseline it replaces: one MPI_Comm_create over the parent for every
// group of the layout (data*pipeline + tensor*pipeline + data*tensor collective calls).
#pragma once

#include <map>
#include <memory>
#include <tuple>

#include "ferry/comm/communicator.hpp"

namespace ferry::comm {

struct Layout {
  int data = 1, tensor = 1, pipeline = 1;
  int size() const { return data * tensor * pipeline; }
  auto operator<=>(const Layout&) const = default;
};

struct Coordinates {
  int data, tensor, pipeline;
};
Coordinates coordinates_of(const Layout& layout, int rank);

struct GroupSet {
  Layout layout;
  Coordinates me;
  std::unique_ptr<Communicator> data, tensor, pipeline;
};

// Collective over parent; parent.size() must equal layout.size() (UsageError otherwise, raised on
// every rank since every rank sees the same sizes).
GroupSet build_groups(const Communicator& parent, const Layout& layout, CommOptions options = {});
GroupSet build_groups_naive(const Communicator& parent, const Layout& layout, CommOptions options = {});

class GroupCache {
 public:
  explicit GroupCache(const Communicator& parent) : parent_(parent) {}
  // Collective the first time a layout is asked for, local afterwards.
  const GroupSet& get(const Layout& layout);

 private:
  const Communicator& parent_;
  std::map<Layout, std::unique_ptr<GroupSet>> cache_;
};

}  // namespace ferry::comm
