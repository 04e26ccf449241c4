// `ferry diffrun --wave64 --bisect`: where does a port that differs go wrong? The port's wave64
// lane-math fixes (migrate --to hip, docs/wave64.md) are switched off one at a time, and each
// variant is built and run against the reference again.
//
// A fix is found without asking the planner: the port is compared line by line with the same
// original migrated without fixes (`--no-wave64-fix`), and every line that differs is one fix
// site (the fixes rewrite tokens in place and keep every line where it was). A variant is the
// port's program folder copied beside it with one such line taken from the unfixed migration.
// The first site whose variant gives the reference's result is the fix that makes the
// difference; when none does, the unfixed port's own verdict says whether the difference comes
// from the fixes at all (a port that differs without any fix differs for another reason: a hazard
// the fixer left, or a construct). Only files inside the program's folder are varied (a fix in a
// header shared from outside it, `../common/`, is not bisected).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "diffrun/diffrun.h"
#include "diffrun/wave64_sides.h"

namespace ferry::diffrun {

struct BisectSite {
  std::string file;     // relative to the program's folder
  int line = 0;         // 1-based; 0: the whole file (its line count changed)
  std::string fixed;    // the port's line
  std::string unfixed;  // the line without the fix
  std::string verdict;  // of the variant without this fix; empty when not run
  std::string first_difference;
};

struct BisectResult {
  std::string unfixed_verdict;  // the port without any fix against the reference
  std::string unfixed_first_difference;
  std::vector<BisectSite> sites;
  int culprit = -1;         // index in sites of the first variant that gave "same"
  std::size_t skipped = 0;  // sites past the limit, not run
  std::string conclusion;   // one sentence
};

struct BisectOptions {
  std::filesystem::path fixed_dir;    // the port's program folder (spec.port.dir)
  std::filesystem::path unfixed_dir;  // the same folder of the migration without fixes
  std::size_t max_sites = 40;
};

// The fix sites: lines that differ between the two folders' text files (recursively), in path
// and line order. Files whose line counts differ are one site each (line 0).
[[nodiscard]] std::vector<BisectSite> fix_sites(const std::filesystem::path& fixed_dir,
                                                const std::filesystem::path& unfixed_dir);

// `spec` and `w` as diffrun --wave64 used them (the reference already built in w.work/ref).
[[nodiscard]] BisectResult bisect_fixes(const Spec& spec, const Wave64Sides& w, const BisectOptions& o,
                                        const std::function<void(const std::string&)>& log = {});

[[nodiscard]] nlohmann::json to_json(const BisectResult& b);
[[nodiscard]] std::string to_text(const BisectResult& b);

}  // namespace ferry::diffrun
