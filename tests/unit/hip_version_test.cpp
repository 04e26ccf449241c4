// The version model of the CUDA → HIP target: profiles, --hip-version resolution, detection of
// the installed HIP, availability of each rule in a release, and the compat headers' wiring.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/hip/compat.h"
#include "targets/hip/toolchain.h"
#include "targets/target.h"

namespace fs = std::filesystem;

namespace ferry::targets::hip {
namespace {

TEST(HipToolchain, ProfilesResolveByNameOrVersion) {
  const Toolchain debian = resolve_toolchain("rocm-5.2");
  EXPECT_EQ(debian.hip, (rules::Version{5, 2}));
  EXPECT_EQ(debian.version_of("hipsparse"), (rules::Version{5, 3}));  // Debian's hipSPARSE is ROCm 5.3's
  EXPECT_EQ(debian.version_of("hipblas"), (rules::Version{5, 2}));
  EXPECT_TRUE(debian.warp_size_constexpr);
  EXPECT_EQ(resolve_toolchain("5.2").name, "rocm-5.2");
  EXPECT_EQ(resolve_toolchain("dtk-24.04").hip, (rules::Version{5, 4}));
  EXPECT_FALSE(resolve_toolchain("rocm-7.0").warp_size_constexpr);
  // A version without a profile: its own number, the nearest older profile's traits.
  const Toolchain v61 = resolve_toolchain("6.1");
  EXPECT_EQ(v61.name, "hip-6.1");
  EXPECT_EQ(v61.version_of("hipsparse"), (rules::Version{6, 1}));
  EXPECT_TRUE(v61.warp_size_constexpr);
  EXPECT_FALSE(resolve_toolchain("7.1").warp_size_constexpr);
  EXPECT_EQ(resolve_toolchain("6.2.4").name, "rocm-6.2");
  EXPECT_THROW((void)resolve_toolchain("rocm-9"), std::invalid_argument);
  EXPECT_THROW((void)resolve_toolchain("0.0"), std::invalid_argument);
  EXPECT_EQ(v61.label(), "HIP 6.1 (hip-6.1)");
}

TEST(HipToolchain, DetectsTheInstalledHipFromItsVersionHeader) {
  const fs::path root = fs::temp_directory_path() / "ferry_hip_version_test";
  fs::create_directories(root / "include" / "hip");
  std::ofstream(root / "include" / "hip" / "hip_version.h")
      << "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 3\n#define HIP_VERSION_PATCH 42131\n";
  const char* old = std::getenv("HIP_PATH");
  const std::string saved = old ? old : "";
  ::setenv("HIP_PATH", root.c_str(), 1);
  const auto found = detect_installed_hip();
  const Toolchain tc = resolve_toolchain("");
  if (old) ::setenv("HIP_PATH", saved.c_str(), 1);
  else ::unsetenv("HIP_PATH");
  fs::remove_all(root);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->first, (rules::Version{6, 3}));
  EXPECT_EQ(tc.hip, (rules::Version{6, 3}));
  EXPECT_NE(tc.chosen_by.find("installed HIP"), std::string::npos);
}

const rules::Rule& rule(const Target& t, std::string_view name) {
  const rules::Rule* r = t.rules().find_identifier(name);
  if (!r) r = t.rules().find_header(name);
  EXPECT_NE(r, nullptr) << name;
  return *r;
}

TEST(HipToolchain, RulesAreAvailableMissingOrCompatPerRelease) {
  Options o52;
  o52.values["hip-version"] = "5.2";
  const auto t52 = make_target("hip", o52);
  EXPECT_EQ(t52->release(), "HIP 5.2 (rocm-5.2)");
  EXPECT_EQ(rule(*t52, "cudaMalloc").availability, rules::Availability::Available);
  EXPECT_EQ(rule(*t52, "cudaSetValidDevices").availability, rules::Availability::Missing);
  EXPECT_EQ(rule(*t52, "cuda_fp8.h").availability, rules::Availability::Compat);  // ferry/compat/fp8.h before 6.2
  EXPECT_EQ(rule(*t52, "cuda_fp8.h").compat, "fp8");
  EXPECT_EQ(rule(*t52, "__nv_fp8_e4m3").availability, rules::Availability::Available);  // unsupported: no HIP name
  EXPECT_EQ(rule(*t52, "__hmax2").compat, "fp16");
  EXPECT_EQ(rule(*t52, "__vmaxs4").availability, rules::Availability::Compat);
  EXPECT_EQ(rule(*t52, "__vmaxs4").compat, "simd");
  EXPECT_EQ(rule(*t52, "__nv_bfloat16").compat, "bf16");
  EXPECT_EQ(rule(*t52, "cuda_bf16.h").compat, "bf16");
  EXPECT_EQ(rule(*t52, "cusparseGetErrorString").compat, "hipsparse");
  // hipSPARSE is ROCm 5.3's on Debian: a name of 5.3 is there, judged by the library's release.
  Options o62;
  o62.values["hip-version"] = "rocm-6.2";
  const auto t62 = make_target("hip", o62);
  EXPECT_EQ(rule(*t62, "cudaSetValidDevices").availability, rules::Availability::Available);
  EXPECT_EQ(rule(*t62, "cuda_bf16.h").availability, rules::Availability::Available);
  EXPECT_EQ(rule(*t62, "cusparseGetErrorString").availability, rules::Availability::Available);
  EXPECT_EQ(rule(*t62, "__vmaxs4").availability, rules::Availability::Compat);       // no HIP has it
  EXPECT_EQ(rule(*t62, "cuda_fp8.h").availability, rules::Availability::Available);  // hip/hip_fp8.h
  EXPECT_EQ(rule(*t62, "__nv_cvt_float_to_fp8").compat, "fp8");  // under CUDA's names: every release
}

TEST(HipToolchain, KnownGapsFollowTheRelease) {
  auto gaps_of = [](const char* version) {
    Options o;
    o.values["hip-version"] = version;
    std::map<std::pair<std::string, std::string>, std::string> g;
    for (KnownGap& k : make_target("hip", o)->known_gaps()) g[{k.scope, k.name}] = k.why;
    return g;
  };
  const auto g52 = gaps_of("5.2");
  ASSERT_TRUE(g52.contains({"hipDeviceProp_t", "unifiedAddressing"}));
  EXPECT_EQ(g52.at({"hipDeviceProp_t", "unifiedAddressing"}),
            "HIP 5.2 (rocm-5.2) lacks hipDeviceProp_t::unifiedAddressing; HIP has it from ROCm 6.0");
  EXPECT_TRUE(g52.contains({"thread_block_tile", "meta_group_rank"}));
  EXPECT_TRUE(g52.contains({"hipMemAllocationProp", "allocFlags"}));
  EXPECT_TRUE(g52.contains({"", "binary_partition"}));     // unsupported: no HIP equivalent
  EXPECT_TRUE(g52.contains({"", "cudaSetValidDevices"}));  // Missing in 5.2
  EXPECT_FALSE(g52.contains({"", "cudaMalloc"}));
  EXPECT_FALSE(g52.contains({"", "__vmaxs4"}));  // Ferry's compat header provides it
  const auto g62 = gaps_of("rocm-6.2");
  EXPECT_FALSE(g62.contains({"hipDeviceProp_t", "unifiedAddressing"}));
  EXPECT_FALSE(g62.contains({"thread_block_tile", "meta_group_rank"}));
  EXPECT_FALSE(g62.contains({"", "cudaSetValidDevices"}));
}

TEST(HipToolchain, GlInteropHeaderBeforeRocm57IsTheCompatHeader) {
  Options o52;
  o52.values["hip-version"] = "5.2";
  EXPECT_EQ(rule(*make_target("hip", o52), "cuda_gl_interop.h").compat, "gl_interop");
  Options o57;
  o57.values["hip-version"] = "5.7";
  EXPECT_EQ(rule(*make_target("hip", o57), "cuda_gl_interop.h").availability, rules::Availability::Available);
}

TEST(HipCompat, EveryEntryMatchesARuleAndEveryNoneRuleHasAnEntry) {
  const CompatTable& compat = compat_table();
  rules::RuleSet set;
  rules::load_builtin(set, "cuda2hip/", std::vector<std::string_view>{"cuda2hip/alt-"});
  std::set<std::string, std::less<>> tos, headers;
  for (const auto& r : set.all()) {
    if (r->kind == rules::RuleKind::Header) headers.emplace(r->from);
    else tos.emplace(r->to);
    if (r->since.is_none()) {
      const bool covered =
          r->kind == rules::RuleKind::Header ? compat.by_header.contains(r->from) : compat.by_name.contains(r->to);
      EXPECT_TRUE(covered) << r->origin() << ": since none, but no compat header provides " << r->to;
    }
  }
  for (const auto& [name, header] : compat.by_name) EXPECT_TRUE(tos.contains(name)) << name << " (" << header << ")";
  for (const auto& [path, header] : compat.by_header) EXPECT_TRUE(headers.contains(path)) << path;
  for (const auto& [header, text] : compat.text)
    EXPECT_TRUE(
        text.starts_with("// ferry: off\n// Written by Ferry (ferry migrate --to hip) into the output tree: "
                         "ferry/compat/" +
                         header + ".h"))
        << header;
}

migrate::FileResult migrate_as(const std::string& path, const std::string& src, const std::string& version,
                               bool single_file = false) {
  Options o;
  o.values["hip-version"] = version;
  const auto t = make_target("hip", o);
  ProjectContext ctx;
  ctx.single_file = single_file;
  return migrate::migrate_buffer(path, src, *t, o, ctx);
}

TEST(HipCompat, IncludeIsRelativeToTheFileAndWrittenOnce) {
  const std::string src =
      "#include <cuda_runtime.h>\n#include \"util.h\"\n\n__global__ void k(unsigned* p) { p[0] = __vadd2(p[0], "
      "p[1]) ^ __vsub4(p[0], p[1]); }\n";
  const migrate::FileResult r = migrate_as("src/kernels/k.cu", src, "5.2");
  EXPECT_NE(r.output.find("#include \"util.h\"\n#include \"../../ferry/compat/simd.h\"\n"), std::string::npos)
      << r.output;
  ASSERT_EQ(r.side_outputs.size(), 1u);
  EXPECT_EQ(r.side_outputs[0].name, "../../ferry/compat/simd.h");
  EXPECT_EQ(r.side_outputs[0].content, compat_table().text.at("simd"));
  std::size_t notes = 0;
  for (const auto& d : r.diagnostics) notes += d.code == Diag::CompatHeaderUsed;
  EXPECT_EQ(notes, 1u);
  // Migrating the output again adds nothing.
  const migrate::FileResult again = migrate_as("src/kernels/k.cu", r.output, "5.2");
  EXPECT_EQ(again.output, r.output);
  // One file on its own: the header goes beside it.
  const migrate::FileResult one = migrate_as("/some/where/k.cu", src, "5.2", true);
  EXPECT_NE(one.output.find("#include \"ferry/compat/simd.h\""), std::string::npos);
  EXPECT_EQ(one.side_outputs.at(0).name, "ferry/compat/simd.h");
}

TEST(HipCompat, MissingNamesStayCudaNamesAndNewerReleasesConvertThem) {
  const std::string src = "#include <cuda_runtime.h>\nvoid f(int* d) { cudaSetValidDevices(d, 2); cudaFree(d); }\n";
  const migrate::FileResult old = migrate_as("f.cu", src, "rocm-5.2");
  EXPECT_NE(old.output.find("cudaSetValidDevices(d, 2); hipFree(d);"), std::string::npos) << old.output;
  ASSERT_EQ(old.diagnostics.size(), 1u);
  EXPECT_EQ(old.diagnostics[0].code, Diag::ReleaseLacksName);
  EXPECT_NE(old.diagnostics[0].message.find("needs ROCm >= 6.2; the target is HIP 5.2 (rocm-5.2)"), std::string::npos)
      << old.diagnostics[0].message;
  const migrate::FileResult now = migrate_as("f.cu", src, "6.2");
  EXPECT_NE(now.output.find("hipSetValidDevices(d, 2); hipFree(d);"), std::string::npos) << now.output;
  EXPECT_TRUE(now.diagnostics.empty());
}

TEST(HipCompat, AStaticDefinitionInASourceFileServesThatFileOnly) {
  // cuda-samples' mergeSort: mergeSort_host.cpp defines a host `static uint umin(...)`, while
  // mergeSort.cu calls CUDA's umin and needs the compat header; a shim in a header serves all.
  const std::string host = "static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n";
  const std::string shim = "__device__ __half2 __hmax2(__half2 a, __half2 b) { return a; }\n";
  const std::string use = "__global__ void k(unsigned* o) { *o = umin(o[0], o[1]); }\n";
  const std::vector<SourceView> files = {{"host.cpp", host}, {"shim.h", shim}, {"k.cu", use}};
  ProjectContext ctx;
  const auto target = make_target("hip", {});
  const std::unique_ptr<ProjectScan> scan = user_compat_scan();
  ProjectScan* const scans[] = {scan.get()};
  run_project_scans(files, scans, *target, ctx);
  EXPECT_TRUE(ctx.user_compat_definitions.contains("host.cpp\tumin"));
  EXPECT_FALSE(ctx.user_compat_definitions.contains("umin"));
  EXPECT_TRUE(ctx.user_compat_definitions.contains("__hmax2"));
}

}  // namespace
}  // namespace ferry::targets::hip
