// The texts a user reads about a wave64 fix: what was done instead of the warpSize form, and why a
// component was left. One place, so that the planner's policy (policy.cpp) and the diagnostics'
// wording (analysis/tokens.cpp, which tells the WMMA form apart by its start) agree. No dependencies:
// the hazard checks include it without the planner.
#pragma once

#include <string>
#include <string_view>

namespace ferry::analysis {

// How a WMMA component fixed in form (a) is described (the start of its fixed_how): only
// `migrate --to hip` writes that form, never the CUDA output of `analyze --fix`.
inline constexpr std::string_view kWmmaDoubledHow = "one CUDA warp per 64-lane wavefront";

namespace wave64_hints {

// fixed_how of a component fixed as one CUDA warp per wavefront (form (a) of WMMA components).
[[nodiscard]] inline std::string wmma_doubled() {
  return std::string(kWmmaDoubledHow) +
         " (docs/wave64.md, WMMA): every launch doubles the block in x, warp "
         "indices count 64 threads (`/ 64`), lanes stay `threadIdx.x % 32` so lanes 32-63 repeat lanes 0-31, "
         "and every 32 keeps its CUDA meaning; the host's grid arithmetic counts the original warps and stays";
}

// fixed_how of a component kept as logical 32-lane warps; `blocker` says where and why the
// warpSize form could not take it ("file:line: reason").
[[nodiscard]] inline std::string logical(const std::string& blocker) {
  return "kept as 32-lane logical warps, one per half of the 64-lane wavefront (its shuffles have the width "
         "32, its ballots and votes take their half, warpSize is 32), because " +
         blocker +
         "; right for any block size; lanes 32-63 do no cross-lane work with lanes 0-31 (a performance "
         "matter, not correctness)";
}

// Why a component was left unfixed: the first blocker, then why the fallback form failed too.
[[nodiscard]] inline std::string blocked(const std::string& blocker, bool wmma, const std::string& not_doubled,
                                         const std::string& not_logical) {
  return blocker + (wmma
                        ? "; as one warp per wavefront with a doubled block: " + not_doubled + " (docs/wave64.md, WMMA)"
                        : "; as 32-lane halves: " + not_logical);
}

}  // namespace wave64_hints
}  // namespace ferry::analysis
