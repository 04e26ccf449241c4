// wave64 CPU runtime: <cooperative_groups/memcpy_async.h>: cg::memcpy_async and cg::wait are in
// include/wave64/coop.h (the copy is done at once).
#pragma once
#include <cooperative_groups.h>
