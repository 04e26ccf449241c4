// ferry-comm: MPI collectives with compression and fast group construction. Include this.
#pragma once
#include "ferry/comm/codec.hpp"
#include "ferry/comm/collectives.hpp"
#include "ferry/comm/communicator.hpp"
#include "ferry/comm/groups.hpp"
#include "ferry/comm/tuning.hpp"
#include "ferry/comm/types.hpp"
