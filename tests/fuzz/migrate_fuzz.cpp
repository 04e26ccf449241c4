// libFuzzer target beside migrate: any bytes, as a CUDA file, migrate to hip, cuda and cann and
// pass every hazard check (with fixes) without a crash or a hang; migrating a buffer is
// deterministic (twice the same input, the same output). Run by tests/fuzz/run_fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "analysis/hazards.h"
#include "analysis/profile.h"
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
  opt.apply_fixes = true;
  if (opt.profile) ferry::analysis::check_all(file, opt);
  return 0;
}
