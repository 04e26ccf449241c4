// Targets own their options and profiles (targets/target.h): the registry is built from each
// target's TargetInfo, options are checked and completed when a target is made.
#include "targets/target.h"

#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "analysis/profile.h"

namespace ferry::targets {
namespace {

TEST(TargetOptions, DefaultsWhenNotGiven) {
  const auto hip = make_target("hip", {});
  EXPECT_EQ(hip->option("launch"), "chevron");
  EXPECT_EQ(hip->option("blas"), "hipblas");
  EXPECT_EQ(hip->option("hip-version"), "");  // empty: the installed HIP
  EXPECT_EQ(hip->option_values(),
            (std::vector<std::string_view>{"chevron", "hipblas", "hipsparse", "", "", ""}));  // declaration order
  EXPECT_THROW((void)hip->option("no-such-option"), std::logic_error);
}

TEST(TargetOptions, CudaVersionIsRecordedResolved) {
  // Empty: the installed nvcc's release (else 13.0), recorded as X.Y so the manifest says it.
  const auto cuda = make_target("cuda", {});
  EXPECT_FALSE(cuda->option("cuda-version").empty());
  EXPECT_NE(cuda->option("cuda-version").find('.'), std::string::npos);
  ferry::targets::Options o;
  o.values["cuda-version"] = "12.4";
  EXPECT_EQ(make_target("cuda", o)->option("cuda-version"), "12.4");
  o.values["cuda-version"] = "twelve";
  EXPECT_THROW((void)make_target("cuda", o), std::invalid_argument);
  ferry::targets::Options h;
  h.values["cuda-version"] = "12.4";
  EXPECT_THROW((void)make_target("hip", h), std::invalid_argument);  // not an option of hip
}

TEST(TargetOptions, GivenValuesAreChecked) {
  Options o;
  o.values["launch"] = "ggl";
  EXPECT_EQ(make_target("hip", o)->option("launch"), "ggl");
  o.values["launch"] = "triple";
  try {
    (void)make_target("hip", o);
    FAIL() << "a value outside the choices was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--launch must be chevron or ggl, not 'triple'");
  }
}

TEST(TargetOptions, AnOptionOfAnotherTargetIsRefused) {
  Options o;
  o.values["blas"] = "rocblas";
  try {
    (void)make_target("cann", o);
    FAIL() << "--blas was accepted by the cann target";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--blas is not an option of target 'cann' (it is one of: hip)");
  }
}

TEST(TargetRegistry, BuiltFromTheTargetsOwnInfo) {
  std::set<std::string_view> names;
  for (const TargetInfo* t : list_targets()) {
    EXPECT_TRUE(names.insert(t->name).second) << "target registered twice: " << t->name;
    EXPECT_EQ(find_target(t->name), t);
    const auto made = make_target(t->name, {});
    EXPECT_EQ(&made->info(), t);
    EXPECT_EQ(made->name(), t->name);
    // Profiles are rows of rules/profiles/profiles.tsv, or none.
    for (const std::string_view p : {t->default_profile, t->source_profile})
      EXPECT_TRUE(p.empty() || analysis::find_profile(p)) << t->name << ": unknown profile " << p;
    std::set<std::string_view> opts;
    for (const OptionSpec& o : t->options) {
      EXPECT_TRUE(opts.insert(o.name).second) << t->name << ": option declared twice: " << o.name;
      EXPECT_FALSE(o.help.empty()) << t->name << " --" << o.name;
    }
  }
  EXPECT_EQ(find_target("nope"), nullptr);
  EXPECT_THROW((void)make_target("nope", {}), std::invalid_argument);
}

TEST(TargetRegistry, DefaultProfilesFollowTheTarget) {
  EXPECT_EQ(find_target("hip")->default_profile, "gfx906");
  EXPECT_EQ(find_target("cuda")->default_profile, "sm_90");
  EXPECT_EQ(find_target("cann")->default_profile, "");  // never gfx906 for Ascend code
  EXPECT_EQ(find_target("cuda")->source_profile, "gfx90a");
}

}  // namespace
}  // namespace ferry::targets
