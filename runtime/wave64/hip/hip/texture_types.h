// wave64 CPU runtime: <hip/texture_types.h>: texture and surface objects are in the runtime (wave64/texture.h).
#pragma once
#include "hip/hip_runtime.h"
