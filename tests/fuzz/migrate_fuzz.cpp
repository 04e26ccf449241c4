// libFuzzer target beside migrate: any bytes, as a CUDA file, migrate to hip, cuda and cann and
// pass the wave64 planner and every hazard check without a crash or a hang; migrating a buffer is
// deterministic (twice the same input, the same output). Run by tests/fuzz/run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "analysis/hazards.h"
#include "analysis/profile.h"
#include "analysis/wave64_fix.h"
#include "migrate/file_migration.h"
#include "targets/target.h"

namespace {

struct Targets {
  ferry::targets::Options options;
  std::vector<std::unique_ptr<ferry::targets::Target>> all;
  Targets() {
    for (const char* to : {"hip", "cuda", "cann"}) all.push_back(ferry::targets::make_target(to, options));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Targets t;
  const std::string src(reinterpret_cast<const char*>(data), size);
  const ferry::targets::ProjectContext project;
  for (const auto& target : t.all) {
    const auto a = ferry::migrate::migrate_buffer("k.cu", src, *target, t.options, project);
    const auto b = ferry::migrate::migrate_buffer("k.cu", src, *target, t.options, project);
    if (a.output != b.output) std::abort();
  }
  ferry::migrate::FileMigration file("k.cu", src, *t.all[0], t.options, project);
  ferry::analysis::HazardOptions opt;
  opt.profile = ferry::analysis::find_profile("gfx906");
  if (!opt.profile) return 0;
  // The planner's fixes (as analyze --fix, and one site at a time as the workbench), then the checks.
  const ferry::analysis::FileFacts facts = ferry::analysis::collect_facts(file);
  ferry::analysis::WarpConstantUses uses;
  ferry::analysis::record_warp_constant_uses(file, facts, uses);
  ferry::analysis::Wave64FixOptions fo;
  fo.site_fixes_of = "k.cu";
  const auto plan = ferry::analysis::plan_wave64_fixes({{"k.cu", &file, &facts}}, *opt.profile, uses, fo);
  if (const auto fp = plan.files.find("k.cu"); fp != plan.files.end()) {
    ferry::analysis::apply_wave64_fixes(file, fp->second);
    opt.fixed_sites = &fp->second.fixed;
  }
  ferry::analysis::check_all(file, opt);
  return 0;
}
