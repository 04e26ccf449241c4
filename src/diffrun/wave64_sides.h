// `ferry diffrun --wave64`: both sides built and run on the wave64 CPU runtime (docs/wave64.md),
// the reference as the original CUDA program with 32-lane warps, the port as the migrated HIP
// program with 64-lane wavefronts. This fills a Spec's build and run commands with
// `ferry wave64 build` invocations; comparing is diffrun's usual business.
#pragma once

#include <string>
#include <vector>

#include "diffrun/diffrun.h"

namespace ferry::diffrun {

struct Wave64Sides {
  std::string ferry;                      // the ferry binary the builds call
  std::vector<std::string> sources;       // relative to each side's dir; shell globs allowed
  std::vector<std::string> include_dirs;  // relative to each side's dir
  std::vector<std::string> defines;
  std::vector<std::string> build_flags;  // more `ferry wave64 build` options, e.g. "-O2"
  std::string args;                      // the program's arguments (shell words), both sides
  int ref_wave = 0;                      // 0: the API's own (CUDA 32, HIP 64)
  int port_wave = 0;
  std::string ref_api = "auto";
  std::string port_api = "auto";
  // The device model of both sides (`ferry wave64 build --device`): "gfx906" (the default: the
  // port's target) or "sm90", so that the two sides differ only in their warp size; "native":
  // each side its API's own (sm90 for CUDA, gfx906 for HIP), as before 2026-12-05.
  std::string device_model = "gfx906";
  std::string work;                   // absolute folder for both builds
  long long fixed_time = 1767225600;  // what time() returns on both sides (W64_TIME)
};

// Single-quotes `s` for /bin/sh.
[[nodiscard]] std::string shell_quote(const std::string& s);

// The build and run commands of one side named `name` (built in w.work/NAME), in `base`'s dir.
[[nodiscard]] Side wave64_side(const Wave64Sides& w, const Side& base, const std::string& name, int wave,
                               const std::string& api);

// Sets spec.ref/port build and run from `w` (their dirs stay as they are). Throws
// std::invalid_argument when there are no sources.
void apply_wave64(const Wave64Sides& w, Spec& spec);

}  // namespace ferry::diffrun
