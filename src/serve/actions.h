// The two long actions of the workbench, run as jobs (serve/jobs.h) through the engine's own
// modules, exactly as the CLI runs them:
//   verify  verify::run_verify over OUT (one translation unit or all, every --arch profile), with
//           the real hipcc/nvcc started by argv (posix_spawn, no shell), killed on cancel; the
//           result is merged into OUT/.ferry/verify.json (report::merge_verify), each unit tagged
//           with the hash of the source it compiled so the workbench can tell a stale result.
//   round   migrate::migrate_tree of the manifest's input into OUT with the manifest's target and
//           options (docs/rounds.md): hand edits are merged three-way; the migration report is
//           recorded as `ferry migrate` records it.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/profile.h"
#include "serve/jobs.h"
#include "serve/workspace.h"

namespace ferry::serve {

struct VerifySettings {
  std::vector<const analysis::Profile*> profiles;  // required
  unsigned jobs = 1;
  std::chrono::seconds timeout{300};
  std::string hipcc, nvcc;  // resolved paths (verify::locate_toolchain); empty: not installed
  bool check_original = true;
  std::optional<std::filesystem::path> cache_dir;
};

// Compiles `only` (a translation unit of OUT) or every unit. Returns the summary of this run and
// the units it compiled. Throws std::invalid_argument for a file that is no translation unit.
[[nodiscard]] nlohmann::json run_verify_job(Workspace& ws, const VerifySettings& settings,
                                            const std::optional<std::string>& only, JobContext& ctx);

// Runs the next round. Returns {"round": {...summary...}, "files": [{"path","action"}] (what the
// round touched: merged, conflict, kept, migrated, copied, removed...), "diagnostics": n,
// "notes": [...]}. Holds the workspace's write lock while it runs.
[[nodiscard]] nlohmann::json run_round_job(Workspace& ws, unsigned jobs, JobContext& ctx);

}  // namespace ferry::serve
