// wave64 CPU runtime: <cooperative_groups/reduce.h>: cg::reduce and its operators are in
// include/wave64/coop.h.
#pragma once
#include <cooperative_groups.h>
