// Inputs cut anywhere: every pass and check must stop at the end of the tokens, whatever the
// last token is. The first case is the crash the fuzzer found (issue 19): a declaration
// `const int lane =` ending the file made the HIP warp-intrinsics pass read past the last code
// token.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "analysis/hazards.h"
#include "analysis/profile.h"
#include "analysis/wave64_fix.h"
#include "migrate/file_migration.h"
#include "targets/target.h"

namespace ferry {
namespace {

const std::string kReproducer =
    "int a;\r#include <a>\r\n#define __shfl_up(v, d) __shfl_up_sync(0xffffffff, v, d)\r\n  const int lane =";

struct Targets {
  targets::Options options;
  std::vector<std::unique_ptr<targets::Target>> all;  // hip, cuda, cann: they rewrite C-family code
  Targets() {
    for (const char* to : {"hip", "cuda", "cann"}) all.push_back(targets::make_target(to, options));
  }
};

const Targets& targets_once() {
  static const Targets t;
  return t;
}

// Migrates `src` with every target, plans the wave64 fixes and runs every hazard check for gfx906.
void migrate_everywhere(const std::string& src) {
  const Targets& t = targets_once();
  const targets::ProjectContext project;
  for (const auto& target : t.all) {
    const migrate::FileResult r = migrate::migrate_buffer("k.cu", src, *target, t.options, project);
    // The untouched first declaration survives in every output.
    if (src.rfind("int a;", 0) == 0) {
      EXPECT_NE(r.output.find("int a;"), std::string::npos) << target->name() << " of: " << src;
    }
  }
  migrate::FileMigration file("k.cu", src, *t.all[0], t.options, project);
  analysis::HazardOptions opt;
  opt.profile = analysis::find_profile("gfx906");
  ASSERT_NE(opt.profile, nullptr);
  // The planner's fixes (as analyze --fix, and one site at a time as the workbench), then the checks.
  const analysis::FileFacts facts = analysis::collect_facts(file);
  analysis::WarpConstantUses uses;
  analysis::record_warp_constant_uses(file, facts, uses);
  analysis::Wave64FixOptions fo;
  fo.site_fixes_of = "k.cu";
  const analysis::Wave64FixPlan plan = analysis::plan_wave64_fixes({{"k.cu", &file, &facts}}, *opt.profile, uses, fo);
  if (const auto fp = plan.files.find("k.cu"); fp != plan.files.end()) {
    analysis::apply_wave64_fixes(file, fp->second);
    opt.fixed_sites = &fp->second.fixed;
  }
  analysis::check_all(file, opt);
}

TEST(TruncatedInput, DeclarationWithoutValueAtTheEnd) { migrate_everywhere(kReproducer); }

TEST(TruncatedInput, EveryPrefixOfTheReproducerInEveryLineEnding) {
  std::vector<std::string> variants = {kReproducer};
  std::string lf, cr;
  for (std::size_t i = 0; i < kReproducer.size(); ++i) {
    if (kReproducer.compare(i, 2, "\r\n") == 0) {
      lf += '\n';
      cr += '\r';
      ++i;
    } else {
      lf += kReproducer[i];
      cr += kReproducer[i];
    }
  }
  variants.push_back(lf);
  variants.push_back(cr);
  for (const std::string& v : variants)
    for (std::size_t n = 0; n <= v.size(); ++n) migrate_everywhere(v.substr(0, n));
}

TEST(TruncatedInput, EveryPrefixOfAKernelWithWarpIntrinsics) {
  const std::string src =
      "#define FULL 0xffffffff\n"
      "__global__ void k(float* x) {\n"
      "  const unsigned mask = __ballot_sync(FULL, x[threadIdx.x] > 0);\n"
      "  for (int o = 16; o > 0; o >>= 1) x[0] += __shfl_down_sync(FULL, x[0], o);\n"
      "  __shared__ float s[32]; s[threadIdx.x & 31] = __popc(mask);\n"
      "  k<<<dim3(2048), 64, 70000>>>(x);\n"
      "}\n";
  for (std::size_t n = 0; n <= src.size(); ++n) migrate_everywhere(src.substr(0, n));
}

}  // namespace
}  // namespace ferry
