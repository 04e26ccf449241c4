// Internal: the entry point of every algorithm, one per file under src/<collective>/<name>.cpp.
// Adding an algorithm = a file, its line here, its row in core/algorithms.cpp, its line in CMake.
#pragma once

#include "core/context.hpp"

namespace ferry::comm::detail {

void allreduce_ring(Context&, const Call&);
void allreduce_recursive_doubling(Context&, const Call&);
void allreduce_rsag(Context&, const Call&);
void reduce_scatter_ring(Context&, const Call&);
void reduce_scatter_pairwise(Context&, const Call&);
void allgather_ring(Context&, const Call&);
void allgather_recursive_doubling(Context&, const Call&);
void broadcast_binomial(Context&, const Call&);
void broadcast_scatter_allgather(Context&, const Call&);
void barrier_dissemination(Context&, const Call&);

}  // namespace ferry::comm::detail
