#include "targets/cuda/cuda_target.h"

#include <set>
#include <stdexcept>
#include "migrate/file_migration.h"

#include "buildsys/source_facts.h"

#include "rules/builtin.h"
#include "rules/cuda_version.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"
#include "targets/cuda/reverse_rules.h"
#include "targets/member_renames.h"
#include "targets/unmapped_names.h"

namespace ferry::targets::cuda {
namespace {

// The cuda target's own options (docs: README.md, docs/targets.md). One row per option.
constexpr OptionSpec kOptions[] = {
    {"cuda-version", "the CUDA release the output is written for (default: the installed nvcc's, else 13.0)", "", ""},
};

// `list` ("a.hpp:3;b/c.hip:9", buildsys::SourceFacts) gets "f:0" for each file f that includes one
// of its files, directly or through other headers of the tree (an include names a file when it is
// the file's path or a tail of it after a '/': `<Reduction/v1.hpp>` for include/Reduction/v1.hpp).
void add_includers(const ProjectContext& ctx, std::string& list) {
  if (list.empty()) return;
  std::set<std::string> needing;
  for (std::size_t b = 0; b < list.size();) {
    std::size_t e = list.find(';', b);
    if (e == std::string::npos) e = list.size();
    const std::string at = list.substr(b, e - b);
    needing.insert(at.substr(0, at.rfind(':')));
    b = e + 1;
  }
  auto names = [&](const std::string& inc) {
    const std::string n = inc.size() > 2 ? inc.substr(1, inc.size() - 2) : inc;
    for (const std::string& p : needing)
      if (p == n || (p.size() > n.size() && p.ends_with(n) && p[p.size() - n.size() - 1] == '/')) return true;
    return false;
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [file, incs] : ctx.includes) {
      if (needing.contains(file)) continue;
      for (const std::string& inc : incs)
        if (names(inc)) {
          needing.insert(file);
          list += ";" + file + ":0";
          grew = true;
          break;
        }
    }
  }
}

// ProjectContext::build_facts. buildsys::scan_source_facts reads every file at once (a constexpr
// function of one file is called in another): its finish holds the texts while it runs.
// The driver API calls (SourceFacts::driver_api) are found per file, from the rules: a call of a
// HIP name the cuda target writes as a driver function (`hipModuleLoad` -> `cuModuleLoad`).
class BuildFactsScan final : public ProjectScan {
 public:
  bool wants(const SourceView&, std::string_view text) const override {
    return text.find("hip") != std::string_view::npos;
  }
  void file(const SourceView& f, const migrate::FileMigration& view, ProjectContext&) override {
    for (std::size_t ci = 0; ci + 1 < view.code_size(); ++ci) {
      if (!view.is_identifier(ci) || !view.is(ci + 1, "(") || view.is_member_or_qualified(ci)) continue;
      const std::string_view name = view.text(ci);
      if (!name.starts_with("hip")) continue;
      const rules::Rule* r = view.target().rules().find_identifier(name);
      if (!r || r->family != "driver" || !r->has_replacement() || r->to.size() < 3 || !r->to.starts_with("cu") ||
          r->to[2] < 'A' || r->to[2] > 'Z')
        continue;
      driver_api_ += (driver_api_.empty() ? "" : ";") + f.path + ":" + std::to_string(view.code(ci).line);
      return;
    }
  }
  void finish(const std::vector<SourceView>& files, ProjectContext& ctx) override {
    if (ctx.migrated_by == "hip") return;
    std::vector<std::string> read(files.size());
    std::vector<buildsys::SourceText> texts;
    texts.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) texts.push_back({files[i].path, source_text(files[i], read[i])});
    ctx.build_facts = buildsys::scan_source_facts(texts);
    ctx.build_facts.driver_api = std::move(driver_api_);
    // A file that includes (through the tree's headers) a header needing an nvcc flag needs it
    // too: its build file is the one that compiles the header's code.
    for (std::string* list :
         {&ctx.build_facts.extended_lambda, &ctx.build_facts.relaxed_constexpr, &ctx.build_facts.driver_api})
      add_includers(ctx, *list);
  }

 private:
  std::string driver_api_;
};

class CudaTarget final : public Target {
 public:
  explicit CudaTarget(const Options& options) : Target(kTarget, options), version_(resolve(option("cuda-version"))) {
    set_option("cuda-version", version_.str());  // recorded resolved: the manifest and the fingerprint
    build_reverse_rules(rules_, nullptr, version_);
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  const rules::RuleSet& rules() const override { return rules_; }

  std::optional<buildsys::Result> migrate_build_file(const std::string& rel, project::FileKind kind,
                                                     std::string_view text,
                                                     const buildsys::Options& given) const override {
    buildsys::Options o = given;
    o.cuda_version = version_.str();
    return buildsys::migrate_build_file_to_cuda(rel, kind, text, o);
  }

  // Which headers each file includes (implicit_headers_pass follows the project's own headers),
  // what the sources tell the build files, the CUDA names the project declares.
  std::vector<std::unique_ptr<ProjectScan>> project_scans() const override {
    std::vector<std::unique_ptr<ProjectScan>> scans;
    scans.push_back(includes_scan());
    scans.push_back(std::make_unique<BuildFactsScan>());
    scans.push_back(unmapped_.declared_scan());
    return scans;
  }
  const UnmappedApiName* unmapped_api_name(std::string_view name) const override { return unmapped_.find(name); }

  void run_passes(migrate::FileMigration& file) const override {
    record_restore_pass(file);
    hip_compat_include_pass(file);
    logical_warp_pass(file);
    module_api_pass(file);
    deviceptr_pass(file);  // after module_api: which hipModule* calls stay the driver's
    vmm_pass(file);        // VMM structs and enums in driver-only VMM code: the driver's spelling
    syncwarp_pass(file);
    printf_cast_pass(file);
    rename_members(file, false);  // rules/member_renames.tsv, right to left
    member_kernel_pass(file);
    launch_pass(file);
    ballot_pass(file);
    wave64_select_pass(file);
    hip_platform_pass(file);
    warp_sync_pass(file);
    device_prop_pass(file);
    cccl_pass(file);
    rocprim_pass(file);
    roc_native_pass(file);
    vector_ctor_pass(file);
    vector_ops_pass(file);
    solver_lwork_pass(file);
    atomic_fp_pass(file);
    texture_ref_pass(file);
    wmma_pass(file);
    amd_only_pass(file);
    implicit_headers_pass(file);
  }
  void finish_file(migrate::FileMigration& file) const override {
    hip_record_pass(file);  // after the rules: the CUDA names HIP code holds, which the way back would rename
    use_compat_header_if_referenced(file);
    roc_native_finish(file);  // ferry/compat_cusparse.h where a rule wrote ferry::cusparse_compat::
    runtime_header_pass(file);
  }

 private:
  // --cuda-version X.Y, else the installed nvcc's, else 13.0.
  static rules::CudaVersion resolve(const std::string& given) {
    if (given.empty()) return rules::installed_nvcc_version().value_or(rules::CudaVersion{});
    if (const auto v = rules::parse_cuda_version(given)) return *v;
    throw std::invalid_argument("--cuda-version " + given + ": not a version (e.g. 13.0, 12.4)");
  }

  rules::CudaVersion version_;
  rules::RuleSet rules_;
  UnmappedNames unmapped_{"hip_api_names.tsv", "HIP", {"hip", "HIP"}};  // FRY1004
};

}  // namespace

const TargetInfo kTarget = {
    "cuda",
    "hip",
    "HIP → CUDA for NVIDIA GPUs (derived from the CUDA → HIP tables)",
    kOptions,
    "sm_90",
    "gfx90a",
    [](const Options& options) -> std::unique_ptr<Target> { return std::make_unique<CudaTarget>(options); },
};

}  // namespace ferry::targets::cuda
