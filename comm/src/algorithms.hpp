// Internal: the entry point of every algorithm, one per file under src/<collective>/<name>.cpp,
// declared from the algorithm table (algorithms.def). Adding an algorithm = a file + its row there.
#pragma once

#include "core/context.hpp"

namespace ferry::comm::detail {

#define FERRY_COMM_ALGORITHM(collective, name, ...) void collective##_##name(Context&, const Call&);
#include "algorithms.def"
#undef FERRY_COMM_ALGORITHM

}  // namespace ferry::comm::detail
