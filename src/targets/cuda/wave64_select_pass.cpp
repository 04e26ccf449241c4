// Wavefront-64 code paths on the way to CUDA (docs/targets.md, "cuda", "Wavefront-64 code paths"):
// the mirror image of the hip target's wave64 fix. HIP code that chooses 64-lane code by the
// preprocessor gets the 32-lane branch under nvcc: `__AMDGCN_WAVEFRONT_SIZE` reads 32 (the rule
// table), `__GFX9__` and the other AMD macros are undefined, user selectors (`WAVE64`) lose their
// -D in the build files (FRY5240). This pass reports each such #if (FRY1240), keeps
// `defined(__AMDGCN_WAVEFRONT_SIZE)` a test of definedness (never `defined(32)`), and sets a
// project macro that holds the wavefront width (`#define WARP_SIZE 64`) to 32 (FRY1241).
#include <string>
#include <vector>

#include "analysis/tokens.h"
#include "buildsys/source_facts.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

bool amd_macro(std::string_view n) {
  return n.starts_with("__AMDGCN") || n.starts_with("__GFX") || n.starts_with("__gfx") || n == "__HIP_PLATFORM_AMD__" ||
         n == "__HIP_PLATFORM_HCC__" || n == "__HIP_DEVICE_COMPILE__";
}
bool wave_size_name(std::string_view n) {
  return n.starts_with("__AMDGCN_WAVEFRONT_SIZE") || n == "warpSize" || n.starts_with("__GFX") ||
         n.starts_with("__gfx9");
}

}  // namespace

namespace {

// `std::array{32, 64}` (deduced size) next to a warp-width name (`static_switch<std::array{32,
// 64}>(warp_size, [&]<int WarpSize>...)`): the set of widths a runtime width is dispatched over.
// On CUDA the 64 is never taken, but it is instantiated, and code sized by it (`__shared__ T
// s[BlockSize / WarpSize]`, zero for 32 threads) does not compile: the list becomes {32} (FRY1247).
void narrow_warp_width_lists(migrate::FileMigration& file) {
  if (file.project().migrated_by == "hip") return;  // a round trip's way back: the CUDA original's text
  for (std::size_t ci = 1; ci + 5 < file.code_size(); ++ci) {
    if (!file.is(ci, "{") || !file.is(ci - 1, "array") || !file.is(ci + 2, ",") || !file.is(ci + 4, "}")) continue;
    const bool w3264 = file.is(ci + 1, "32") && file.is(ci + 3, "64");
    const bool w6432 = file.is(ci + 1, "64") && file.is(ci + 3, "32");
    if (!(w3264 || w6432) || file.excluded(ci) || file.touched(ci + 1) || file.in_directive(ci)) continue;
    bool warp = false;
    for (std::size_t k = ci + 5; k < ci + 17 && k < file.code_size() && !file.is(k, ";"); ++k)
      warp = warp || (file.is_identifier(k) && analysis::names_warp_or_wave(file.text(k)));
    for (std::size_t k = ci - 1; k-- > 0 && k + 10 > ci && !file.is(k, ";") && !file.is(k, "{");)
      warp = warp || (file.is_identifier(k) && analysis::names_warp_or_wave(file.text(k)));
    if (!warp) continue;
    if (!file.replace(ci + 1, ci + 3, "32")) continue;
    file.diag(Diag::WarpWidthListCuda, ci + 1,
              "the warp widths {32, 64} a warp size is dispatched over: CUDA warps have 32 lanes, and the 64-lane "
              "instantiation (never taken) may not compile for nvcc: narrowed to {32}",
              "nothing to do");
  }
}

}  // namespace

void wave64_select_pass(migrate::FileMigration& file) {
  narrow_warp_width_lists(file);
  const buildsys::SourceFacts& facts = file.project().build_facts;
  std::vector<bool> guarded;  // per open #if: its condition is about the AMD target or the wave size
  auto any_guard = [&] {
    for (bool g : guarded)
      if (g) return true;
    return false;
  };
  for (std::size_t ci = 0; ci + 1 < file.code_size(); ++ci) {
    if (!file.in_directive(ci) || !file.is(ci, "#")) continue;
    const std::size_t last = file.directive_last(ci);
    const std::string_view d = file.text(ci + 1);
    const bool opens = d == "if" || d == "ifdef" || d == "ifndef";
    if (d == "endif") {
      if (!guarded.empty()) guarded.pop_back();
    } else if (opens || d == "elif") {
      bool amd = false, wave = false;
      std::string what;
      for (std::size_t k = ci + 2; k <= last && k < file.code_size(); ++k) {
        if (!file.is_identifier(k)) continue;
        const std::string name(file.text(k));
        const bool user = facts.wave64_macros.contains(name) || facts.width_macros.contains(name) ||
                          buildsys::is_wave64_macro_name(name);
        amd = amd || amd_macro(name) || user;
        if (wave_size_name(name) || user) {
          wave = true;
          if (what.empty()) what = name;
        }
        // defined(__AMDGCN_WAVEFRONT_SIZE) / #ifdef __AMDGCN_WAVEFRONT_SIZE: a test of definedness
        // (false under nvcc), not of the value the rule table gives it.
        if (name.starts_with("__AMDGCN_WAVEFRONT_SIZE") && !file.touched(k) &&
            (d == "ifdef" || d == "ifndef" || file.is(k - 1, "defined") ||
             (file.is(k - 1, "(") && file.is(k - 2, "defined"))))
          file.replace(k, k, name);
      }
      if (opens) guarded.push_back(amd);
      else if (!guarded.empty()) guarded.back() = guarded.back() || amd;
      if (wave && !file.excluded(ci))
        file.diag(Diag::Wave64SelectCuda, Severity::Note, ci,
                  "this #" + std::string(d) + " chooses code by the wavefront width ('" + what +
                      "'): under nvcc the 32-lane branch is compiled",
                  "CUDA warps have 32 lanes; check that the branch nvcc takes is the 32-lane one");
    } else if (d == "define" && ci + 3 <= last && file.is_identifier(ci + 2) && !any_guard() && !file.excluded(ci)) {
      // #define WARP_SIZE 64 outside any AMD-only branch: the width of a CUDA warp is 32.
      const std::string name(file.text(ci + 2));
      const bool width = facts.width_macros.contains(name) || buildsys::is_width_macro_name(name);
      if (width && ci + 3 == last && file.is(ci + 3, "64") && !file.touched(ci + 3)) {
        file.replace(ci + 3, ci + 3, "32");
        file.diag(Diag::Wave64WidthMacroCuda, Severity::Warning, ci + 3,
                  "'" + name +
                      "' is the wavefront width (64 on AMD's GCN/CDNA GPUs): set to 32, the lanes of a "
                      "CUDA warp",
                  "code that needs 64 lanes of data per group must be reworked (two warps, or 2 items a lane)");
      }
    }
    ci = last;
  }
}

}  // namespace ferry::targets::cuda
