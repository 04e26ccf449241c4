#include "analysis/hazards.h"

#include "analysis/wave64_fix.h"

namespace ferry::analysis {

using migrate::FileMigration;

namespace {

// The checks, in the order they run (the order of their diagnostics on a line).
constexpr Check kChecks[] = {
    {"warp-constants", "FRY2204", true, false, check_warp_constants},
    {"shuffle-loops", "FRY2205", true, false, check_shuffle_loops},
    {"lane-arithmetic", "FRY2201 FRY2202 FRY2203", true, false, check_lane_arithmetic},
    {"full-masks", "FRY2206", true, true, check_full_masks},
    {"ballot-width", "FRY2207 FRY2208", true, true, check_ballot_width},
    {"per-warp-shared", "FRY2209", true, false, check_per_warp_shared},
    {"static-lds", "FRY3201", false, false, check_static_lds},
    {"block-size", "FRY3202 FRY3203", false, false, check_block_size},
    {"dynamic-lds", "FRY3204", false, false, check_dynamic_lds},
};

}  // namespace

std::span<const Check> check_table() { return kChecks; }

bool wave64_checks_apply(const Profile& profile) { return profile.wave_size > 32; }

bool is_hazard_code(Diag code) {
  const auto id = static_cast<unsigned>(code);
  return (id >= 2200 && id < 2300) || (id >= 3200 && id < 3300);
}

const std::vector<DiagInfo>& hazard_codes() {
  static const std::vector<DiagInfo> kCodes = [] {
    std::vector<DiagInfo> v;
    for (const DiagInfo& d : diagnostic_table())
      if (is_hazard_code(d.code)) v.push_back(d);
    return v;
  }();
  return kCodes;
}

// ----- all -----------------------------------------------------------------------------------

void check_all(FileMigration& file, const HazardOptions& opt,
               const std::map<std::string, long long>* project_constants) {
  check_all(file, opt, collect_facts(file, project_constants));
}

void check_all(FileMigration& file, const HazardOptions& opt, const FileFacts& facts) {
  const bool wave64 = wave64_checks_apply(*opt.profile);
  for (const Check& c : kChecks) {
    if (c.wave64 && !wave64) continue;
    if (c.intrinsic && !opt.intrinsic_checks) continue;
    c.run(file, facts, opt);
  }
}

void hazard_pass(FileMigration& file, const Wave64FilePlan* fixes, const FileFacts* facts) {
  static const Profile* const kDefault = find_profile("gfx906");
  if (!kDefault) return;
  HazardOptions opt;
  opt.profile = kDefault;
  if (fixes) {
    opt.fixed_sites = &fixes->fixed;
    opt.unfixed_reasons = &fixes->unfixed;
    opt.harmless_sites = &fixes->harmless;
    opt.fixed_how = &fixes->fixed_how;
  }
  opt.intrinsic_checks = false;  // the HIP warp-intrinsics pass rewrites and reports those calls
  if (facts) check_all(file, opt, *facts);
  else check_all(file, opt);
}

}  // namespace ferry::analysis
