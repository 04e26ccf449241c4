// The region pass of `ferry wave64 build` (docs/wave64.md, "Speed"): a kernel whose barriers and
// warp operations stand at statement level — in its body, or in `for`/`while`/`if` statements whose
// header every lane computes alike — is given a second body in region form, in which the code
// between two of them is a loop over the block's lanes (runtime/wave64/include/wave64/regions.h).
// Locals that live across a region boundary become per-lane arrays; a warp operation becomes a
// whole-wavefront step between two regions. The original body stays as the fiber path, which
// the runtime takes with W64_REGIONS=0. Kernels outside that shape keep only the fiber path and
// get a note saying why; when unsure, the pass keeps the fiber path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ferry::wave64 {

// "path:line:col: note: kernel K runs in region form ..." or "... keeps the fiber path: WHY".
struct RegionNote {
  bool split = false;
  std::uint32_t line = 0, col = 0;
  std::string message;
  std::string format(const std::string& path) const;
};

struct RegionOutcome {
  std::string text;               // the source with every split kernel rewritten
  std::vector<RegionNote> notes;  // one per kernel with barriers or warp operations
  int split = 0;                  // kernels given a region form
  int kept = 0;                   // kernels with barriers or warp operations left on fibers
};

// `text` is a source after the driver's other rewrites, its lines still the original's;
// `display_path` is what #line directives and notes name.
[[nodiscard]] RegionOutcome form_regions(std::string_view text, const std::string& display_path);

}  // namespace ferry::wave64
