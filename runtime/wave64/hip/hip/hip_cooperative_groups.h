// wave64 CPU runtime: <hip/hip_cooperative_groups.h> (what is modelled: include/wave64/coop.h).
// The tiles have the members of HIP >= 6 (meta_group_rank, ballot, any, all) besides HIP 5.2's.
#pragma once
#include "hip/hip_runtime.h"
#include "wave64/coop.h"
