// wave64 CPU runtime: <cooperative_groups.h> (what is modelled: include/wave64/coop.h).
#pragma once
#include "cuda_runtime.h"
#include "wave64/coop.h"
