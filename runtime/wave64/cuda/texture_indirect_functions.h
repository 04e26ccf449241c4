// wave64 CPU runtime: <texture_indirect_functions.h>: texture and surface objects come with <cuda_runtime.h>
// (wave64/texture.h).
#pragma once
#include "cuda_runtime.h"
