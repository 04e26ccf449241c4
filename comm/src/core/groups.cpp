// Group construction for data x tensor x pipeline layouts.
#include <fmt/format.h>

#include <vector>

#include "ferry/comm/groups.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm {

Coordinates coordinates_of(const Layout& l, int rank) {
  return {(rank / l.tensor) % l.data, rank % l.tensor, rank / (l.tensor * l.data)};
}

namespace {

int rank_of(const Layout& l, int d, int t, int p) { return (p * l.data + d) * l.tensor + t; }

void check_layout(const Communicator& parent, const Layout& l) {
  if (l.data < 1 || l.tensor < 1 || l.pipeline < 1 || l.size() != parent.size())
    throw UsageError(
        fmt::format("ferry-comm groups: layout {}x{}x{} (data x tensor x pipeline) does not cover {} ranks", l.data,
                    l.tensor, l.pipeline, parent.size()));
}

std::unique_ptr<Communicator> adopt(MPI_Comm c, const CommOptions& options) {
  if (c == MPI_COMM_NULL) throw UsageError("ferry-comm groups: this rank got no communicator");
  return std::make_unique<Communicator>(c, Communicator::Adopt{}, options);
}

}  // namespace

GroupSet build_groups(const Communicator& parent, const Layout& l, CommOptions options) {
  check_layout(parent, l);
  GroupSet g{l, coordinates_of(l, parent.rank()), nullptr, nullptr, nullptr};
  const auto& me = g.me;
  // One split per dimension: the colour names the group (the other two coordinates), the key
  // orders ranks inside it by the coordinate along the dimension.
  MPI_Comm d, t, p;
  MPI_Comm_split(parent.mpi(), me.pipeline * l.tensor + me.tensor, me.data, &d);
  MPI_Comm_split(parent.mpi(), me.pipeline * l.data + me.data, me.tensor, &t);
  MPI_Comm_split(parent.mpi(), me.data * l.tensor + me.tensor, me.pipeline, &p);
  g.data = adopt(d, options);
  g.tensor = adopt(t, options);
  g.pipeline = adopt(p, options);
  return g;
}

GroupSet build_groups_naive(const Communicator& parent, const Layout& l, CommOptions options) {
  check_layout(parent, l);
  GroupSet g{l, coordinates_of(l, parent.rank()), nullptr, nullptr, nullptr};
  MPI_Group world;
  MPI_Comm_group(parent.mpi(), &world);
  // Every group of the layout, one MPI_Comm_create over the whole parent each; a rank keeps the
  // communicators of the groups it belongs to.
  auto make = [&](std::vector<int> members, bool mine, std::unique_ptr<Communicator>& slot) {
    MPI_Group grp;
    MPI_Comm comm;
    MPI_Group_incl(world, static_cast<int>(members.size()), members.data(), &grp);
    MPI_Comm_create(parent.mpi(), grp, &comm);
    MPI_Group_free(&grp);
    if (mine) slot = adopt(comm, options);
  };
  for (int p = 0; p < l.pipeline; ++p)
    for (int t = 0; t < l.tensor; ++t) {
      std::vector<int> m;
      for (int d = 0; d < l.data; ++d) m.push_back(rank_of(l, d, t, p));
      make(m, p == g.me.pipeline && t == g.me.tensor, g.data);
    }
  for (int p = 0; p < l.pipeline; ++p)
    for (int d = 0; d < l.data; ++d) {
      std::vector<int> m;
      for (int t = 0; t < l.tensor; ++t) m.push_back(rank_of(l, d, t, p));
      make(m, p == g.me.pipeline && d == g.me.data, g.tensor);
    }
  for (int d = 0; d < l.data; ++d)
    for (int t = 0; t < l.tensor; ++t) {
      std::vector<int> m;
      for (int p = 0; p < l.pipeline; ++p) m.push_back(rank_of(l, d, t, p));
      make(m, d == g.me.data && t == g.me.tensor, g.pipeline);
    }
  MPI_Group_free(&world);
  return g;
}

const GroupSet& GroupCache::get(const Layout& layout) {
  auto it = cache_.find(layout);
  if (it != cache_.end()) return *it->second;
  auto g = std::make_unique<GroupSet>(build_groups(parent_, layout));
  return *cache_.emplace(layout, std::move(g)).first->second;
}

}  // namespace ferry::comm
