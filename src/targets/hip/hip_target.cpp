#include "targets/hip/hip_target.h"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "analysis/hazards.h"
#include "core/split.h"
#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/hip/compat.h"
#include "targets/hip/passes.h"
#include "targets/hip/toolchain.h"
#include "targets/member_renames.h"
#include "targets/unmapped_names.h"

namespace ferry::targets::hip {
namespace {

// rules/hip_members.tsv: type, member, first ROCm release whose HIP has it[, the device
// attribute that reads it in older releases, CUDA's type of the member].
struct HipMember {
  std::string type, member;
  rules::Version since;
  std::string attribute, cuda_type;
};

std::vector<HipMember> load_hip_members() {
  std::vector<HipMember> out;
  for (const rules::EmbeddedTable& t : rules::builtin_tables()) {
    if (t.path != "hip_members.tsv") continue;
    const std::vector<std::string_view> lines = split(t.text, '\n');
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = lines[i];
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || line.front() == '#') continue;
      const std::vector<std::string_view> f = split(line, '\t');
      const auto since = f.size() == 3 || f.size() == 5 ? rules::Version::parse(f[2]) : std::nullopt;
      if (!since)
        throw std::runtime_error("rules/hip_members.tsv:" + std::to_string(i + 1) +
                                 ": expected type, member, since[, attribute, cuda_type]");
      out.push_back({std::string(f[0]), std::string(f[1]), *since, f.size() == 5 ? std::string(f[3]) : "",
                     f.size() == 5 ? std::string(f[4]) : ""});
    }
  }
  return out;
}

// The hip target's own options (docs: README.md, docs/rules.md). One row per option.
constexpr OptionSpec kOptions[] = {
    {"launch", "kernel launches: chevron (keep <<<>>>) or ggl (hipLaunchKernelGGL)", "chevron", "chevron,ggl"},
    {"blas", "cuBLAS maps to: hipblas or rocblas", "hipblas", "hipblas,rocblas"},
    {"sparse", "cuSPARSE maps to: hipsparse or rocsparse", "hipsparse", "hipsparse,rocsparse"},
    {"hip-data-types",
     "cudaDataType -> hipDataType in every library's calls (default: the library's own type where it has one)", "", "",
     true},
    {"hip-version", "HIP release to write code for: X.Y or a profile (ferry targets); default: the installed HIP", "",
     ""},
    {"no-wave64-fix",
     "keep 32-lane assumptions as written (by default lane ids, warp indices, warp widths, reductions, "
     "lane masks and per-warp slots are rewritten for 64-lane wavefronts where provably safe)",
     "", "", true},
    {"rewrite-strings", "also rename API names inside string literals (messages), as hipify-clang can", "", "", true},
};

class HipTarget final : public Target {
 public:
  explicit HipTarget(const Options& options)
      : Target(kTarget, options), options_(options), toolchain_(resolve_toolchain(option("hip-version"))) {
    const bool rocblas = option("blas") == "rocblas";
    const bool rocsparse = option("sparse") == "rocsparse";
    std::vector<std::string_view> skip = {"cuda2hip/alt-"};
    if (rocblas) skip.push_back("cuda2hip/cublas.tsv");
    if (rocsparse) skip.push_back("cuda2hip/cusparse.tsv");
    rules::load_builtin(rules_, "cuda2hip/", skip);
    if (rocblas) rules::load_builtin(rules_, "cuda2hip/alt-rocblas/");
    if (rocsparse) rules::load_builtin(rules_, "cuda2hip/alt-rocsparse/");
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
    apply_toolchain(rules_, toolchain_, option("blas"), option("sparse"));
    reserved_ = load_reserved_names();
    provided_ = load_hip_provided();
    typedef_tags_ = load_hip_typedef_tags();
    unmapped_ = UnmappedNames("cuda_api_names.tsv", "CUDA", {"cu", "CU", "nccl", "NCCL"});
    for (const HipMember& m : load_hip_members()) {
      if (!toolchain_.hip.known() || !(toolchain_.hip < m.since)) continue;
      if (m.type == "thread_block_tile") {
        tile_meta_missing_ = true;
      } else if (m.type.starts_with("hip")) {  // a struct: its spellings are HIP's and the CUDA types mapped to it
        std::vector<std::string> type_names = {m.type};
        for (const auto& r : rules_.all())
          if (r->kind == rules::RuleKind::Type && r->to == m.type) type_names.emplace_back(r->from);
        prop_members_.push_back({m.type, std::move(type_names), m.member, m.since.str(), m.attribute, m.cuda_type});
      }
    }
  }

  const rules::RuleSet& rules() const override { return rules_; }
  std::string release() const override { return toolchain_.label(); }

  // What the rules leave unconverted for this release (availability Missing: a later `since`, or
  // `none` with no compat header) or mark unsupported with no replacement, and the members of
  // rules/hip_members.tsv newer than the release.
  std::vector<KnownGap> known_gaps() const override {
    std::vector<KnownGap> gaps;
    const std::string rel = release();
    for (const auto& r : rules_.all()) {
      if (r->kind == rules::RuleKind::Header || r->kind == rules::RuleKind::Namespace ||
          r->kind == rules::RuleKind::Call)
        continue;
      if (r->availability == rules::Availability::Missing)
        gaps.push_back({"", std::string(r->from),
                        rel + " lacks it" +
                            (r->since.is_none() ? std::string("; no HIP release has it")
                                                : "; HIP has it from ROCm " + r->since.str())});
      else if (r->status == rules::Status::Unsupported && !r->has_replacement())
        gaps.push_back({"", std::string(r->from),
                        "HIP has no equivalent" + (r->note.empty() ? std::string() : ": " + std::string(r->note))});
    }
    for (const HipMember& m : load_hip_members())
      if (toolchain_.hip.known() && toolchain_.hip < m.since)
        gaps.push_back(
            {m.type, m.member, rel + " lacks " + m.type + "::" + m.member + "; HIP has it from ROCm " + m.since.str()});
    return gaps;
  }

  std::optional<buildsys::Result> migrate_build_file(const std::string& rel, project::FileKind kind,
                                                     std::string_view text, const buildsys::Options& o) const override {
    return buildsys::migrate_build_file(rel, kind, text, o);
  }

  // In this order: the merges of the later ones read what the earlier ones found (the includes).
  std::vector<std::unique_ptr<ProjectScan>> project_scans() const override {
    std::vector<std::unique_ptr<ProjectScan>> scans;
    scans.push_back(name_clash_scan(reserved_, api_names_, provided_, rules_));
    scans.push_back(user_compat_scan());
    scans.push_back(includes_scan());
    scans.push_back(deviceptr_scan());
    scans.push_back(stand_in_scan(rules_));
    scans.push_back(unmapped_.declared_scan());
    if (!flag("no-wave64-fix")) scans.push_back(wave64_scan(*this, options_));
    return scans;
  }
  // The clash renames go first: they own the user's tokens. The warp pass then rewrites the
  // intrinsics (its output is never renamed), the launch pass the <<<>>> glue.
  void run_passes(migrate::FileMigration& file) const override {
    PhaseClock clock(file.options().timings);
    hip_record_restore_pass(file);  // what HIP -> CUDA recorded (`/* ferry-hip: ... */`) wins over everything
    clock.lap("hip_record_restore_pass");
    // The lane-math fixes own their tokens (numbers, type words): nothing else rewrites those.
    const analysis::Wave64FilePlan* fixes = wave64_fix_pass(file);
    // The file's facts, once for wmma_pass and hazard_pass: the planner's, else collected on first ask.
    const analysis::FileFactsSlot facts(file, take_planned_facts(file));
    clock.lap("wave64_fix_pass");
    // Then: it may move a runtime include up, and must claim that line before the renamer.
    runtime_header_pass(file);
    clock.lap("runtime_header_pass");
    fp16_header_pass(file);  // after it: <hip/hip_fp16.h> goes below the runtime include it adds
    clock.lap("fp16_header_pass");
    stand_in_pass(file, rules_);  // diagnostics only: a header that stands in for cuda.h
    clock.lap("stand_in_pass");
    hip_provided_pass(file, provided_);  // before the renamer: it never renames these names
    clock.lap("hip_provided_pass");
    same_signature_pass(file);  // overloads the renames make identical: the later guarded
    clock.lap("same_signature_pass");
    elaborated_type_pass(file, typedef_tags_);  // `struct X` where HIP's X is a typedef only
    clock.lap("elaborated_type_pass");
    deviceptr_pass(file, facts);  // integer uses of CUdeviceptr, texture objects: HIP's are pointers
    clock.lap("deviceptr_pass");
    compat_header_pass(file);  // includes of CUDA headers the release lacks: Ferry's compat header
    clock.lap("compat_header_pass");
    cuda_compat_pass(file);  // Ferry's own compat constructs, before anything renames them
    clock.lap("cuda_compat_pass");
    cuda_record_pass(file);  // before the rules rewrite the includes it records
    clock.lap("cuda_record_pass");
    wmma_pass(file, facts);  // before the rules: `wmma::` under `using namespace nvcuda;`, fragment element types
    clock.lap("wmma_pass");
    name_clash_pass(file);
    clock.lap("name_clash_pass");
    // CUBLAS_* in cuSOLVER calls: HIPSOLVER_*, not HIPBLAS_*; enum variables cast for hipSOLVER < 6.0
    solver_args_pass(file, toolchain_.version_of("hipsolver") < rules::Version{6, 0});
    clock.lap("solver_args_pass");
    data_types_pass(file, toolchain_, rules_);  // CUDA_R_32F in library calls: the library's own type
    clock.lap("data_types_pass");
    // __half* arguments of hipblasHgemm...: hipblasHalf*; hipBLAS 5.x's own complex functions
    blas_half_casts_pass(file, rules_, toolchain_.version_of("hipblas") < rules::Version{6, 0});
    clock.lap("blas_half_casts_pass");
    warp_intrinsics_pass(file);
    clock.lap("warp_intrinsics_pass");
    tile_shuffle_pass(file);  // cooperative-groups tile shuffles of vector values
    clock.lap("tile_shuffle_pass");
    call_args_pass(file);  // after the warp pass: CUDA 13 memory locations, __ffs(64-bit)
    clock.lap("call_args_pass");
    // rules/member_renames.tsv: requestedHandleTypes -> requestedHandleType; HIP 5.2's compressionType.
    // Before device_prop_pass, which reports the members the release lacks that no row renames.
    rename_members(file, true, toolchain_.hip);
    clock.lap("rename_members");
    device_prop_pass(file, prop_members_, release());  // struct members the release lacks (hip_members.tsv)
    clock.lap("device_prop_pass");
    if (tile_meta_missing_) tile_meta_pass(file);  // ROCm 5.7's meta_group_rank/size, older releases
    clock.lap("tile_meta_pass");
    launch_pass(file);
    clock.lap("launch_pass");
    dynamic_parallelism_pass(file, facts);  // launches and runtime calls in device code: HIP has no device runtime
    clock.lap("dynamic_parallelism_pass");
    inline_asm_pass(file);
    clock.lap("inline_asm_pass");
    warp_size_pass(file, toolchain_.warp_size_constexpr);  // ROCm 7: warpSize is not a constant
    clock.lap("warp_size_pass");
    dialect_pass(file);  // nvcc-isms clang's C++17 rejects (register)
    clock.lap("dialect_pass");
    strings_pass(file);  // --rewrite-strings: API names in messages
    clock.lap("strings_pass");
    // CUDA's unsigned/64-bit min()/max(): clang 15's HIP headers (HIP 5.2) have int/float/double only.
    minmax_pass(file, toolchain_.hip <= rules::Version{5, 2});
    clock.lap("minmax_pass");
    fp16_atomic_pass(file);  // CUDA's atomicAdd(__half*, __half): no HIP release has it
    clock.lap("fp16_atomic_pass");
    atomic64_pass(file, toolchain_.hip < rules::Version{5, 7});  // atomicMin/Max(long long*): ROCm 5.7
    clock.lap("atomic64_pass");
    fp16_raw_init_pass(file);  // __half_raw{0xFBFF}: HIP's first member is the _Float16, not the bits
    clock.lap("fp16_raw_init_pass");
    fp16_shfl_pass(file);  // __shfl*(__half): no overload in HIP 5.2 (ambiguous)
    clock.lap("fp16_shfl_pass");
    analysis::hazard_pass(file, fixes, &facts.get());  // wave64 and LDS/thread hazards for gfx906 (fixed ones as notes)
    clock.lap("hazard_pass");
    if (fixes) mark_widened_ballots(file, *fixes);
    clock.lap("mark_widened_ballots");
  }
  void finish_file(migrate::FileMigration& file) const override {
    PhaseClock clock(file.options().timings);
    record_spellings(file);  // after the rules: the CUDA names a many-to-one rename would lose
    clock.lap("record_spellings");
    compat_finish(file);
    clock.lap("compat_finish");
  }
  const UnmappedApiName* unmapped_api_name(std::string_view name) const override { return unmapped_.find(name); }

 private:
  Options options_;  // the wave64 pre-pass migrates every file once more with them
  Toolchain toolchain_;
  rules::RuleSet rules_;
  std::unordered_set<std::string> reserved_;
  HipProvidedTable provided_;
  HipTypedefTags typedef_tags_;
  UnmappedNames unmapped_;                      // rules/cuda_api_names.tsv: FRY1004
  ApiNames api_names_{rules_, unmapped_};       // never user clashes
  std::vector<DevicePropMember> prop_members_;  // struct members the release lacks
  bool tile_meta_missing_ = false;              // the release lacks thread_block_tile::meta_group_rank
};

}  // namespace

const TargetInfo kTarget = {
    "hip",
    "cuda",
    "CUDA → HIP for ROCm: AMD GPUs and Hygon DCU (wave64)",
    kOptions,
    "gfx906",
    "sm_90",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<HipTarget>(options); },
};

}  // namespace ferry::targets::hip
