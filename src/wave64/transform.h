// The source transformation `ferry wave64 build` applies before the host compiler sees a file:
// only what C++ cannot express, on our own lexer, keeping every line where it was.
//   - kernel launches `k<<<g, b[, shm[, stream]]>>>(args)` become hipLaunchKernelGGL(...), which
//     the runtime defines for both APIs (the hip target's launch pass does the rewrite);
//   - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared memory (in a
//     function), or a thread-local pointer the runtime sets at each block start (at file scope);
//   - inline assembly in a __device__/__global__ function (PTX, GCN) is an error, FRY5601;
//   - a warp-synchronous step in shared memory (no barrier after it) gets a lock-step point.
// A `#line 1 "path"` first line makes the compiler report the original path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace ferry::wave64 {

struct Transformed {
  std::string text;
  std::vector<Diagnostic> diagnostics;    // errors stop the build
  int launches = 0;                       // <<<>>> launches rewritten
  int dynamic_shared = 0;                 // extern __shared__ arrays rewritten
  int regions_split = 0;                  // kernels given a region form (regions.h)
  int lockstep_points = 0;                // lock-step points after warp-synchronous steps
  std::vector<std::string> region_notes;  // which kernels run in region form, which not and why
};

// `display_path` is what diagnostics and #line name (the original file). `regions`: run the
// region pass (regions.h) on the result.
[[nodiscard]] Transformed transform_source(std::string_view src, const std::string& display_path, bool regions = true);

}  // namespace ferry::wave64
