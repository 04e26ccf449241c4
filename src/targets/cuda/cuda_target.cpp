#include "targets/cuda/cuda_target.h"

#include "migrate/file_migration.h"
#include "rules/builtin.h"
#include "targets/cuda/compat_header.h"
#include "targets/cuda/passes.h"
#include "targets/cuda/reverse_rules.h"

namespace ferry::targets {
namespace {

class CudaTarget final : public Target {
 public:
  explicit CudaTarget(const Options& options) {
    cuda::build_reverse_rules(rules_, nullptr,
                              rules::parse_cuda_version(options.cuda_version).value_or(rules::CudaVersion{}));
    for (const std::string& f : options.user_rule_files) rules::load_user_file(rules_, f);
  }

  std::string_view name() const override { return "cuda"; }
  std::string_view source_dialect() const override { return "hip"; }
  std::string_view summary() const override {
    return "HIP → CUDA for NVIDIA GPUs (derived from the CUDA → HIP tables)";
  }
  const rules::RuleSet& rules() const override { return rules_; }

  // Which headers each file includes (implicit_headers_pass follows the project's own headers).
  void prepare_project(const std::vector<SourceView>& files, ProjectContext& ctx) const override {
    for (const SourceView& f : files) {
      std::vector<std::string>& inc = ctx.includes[f.path];
      for (const lex::Token& t : lex::tokenize(f.text))
        if (t.kind == lex::Kind::HeaderName) inc.emplace_back(f.text.substr(t.begin, t.end - t.begin));
    }
  }

  void run_passes(migrate::FileMigration& file) const override {
    cuda::record_restore_pass(file);
    cuda::module_api_pass(file);
    cuda::syncwarp_pass(file);
    cuda::launch_pass(file);
    cuda::ballot_pass(file);
    cuda::device_prop_pass(file);
    cuda::cccl_pass(file);
    cuda::rocprim_pass(file);
    cuda::vector_ctor_pass(file);
    cuda::atomic_fp_pass(file);
    cuda::texture_ref_pass(file);
    cuda::wmma_pass(file);
    cuda::amd_only_pass(file);
    cuda::implicit_headers_pass(file);
  }
  void finish_file(migrate::FileMigration& file) const override {
    cuda::use_compat_header_if_referenced(file);
    cuda::runtime_header_pass(file);
  }

 private:
  rules::RuleSet rules_;
};

}  // namespace

std::unique_ptr<Target> make_cuda_target(const Options& options) {
  return std::make_unique<CudaTarget>(options);
}

}  // namespace ferry::targets
