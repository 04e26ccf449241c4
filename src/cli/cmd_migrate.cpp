#include <filesystem>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "buildsys/build_files.h"
#include "cli/commands.h"
#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/json_report.h"
#include "report/progress.h"
#include "rules/cuda_version.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct MigrateArgs {
  std::string path;
  std::string output;
  std::string to = "hip";
  std::string from;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  targets::Options options;
  bool json = false;
  std::string report_file;
  bool force = false;
  bool quiet = false;
  std::uintmax_t max_mib = 64;
  std::string arch;
  std::string sarif_file;
  std::string html_file;
};

void print_diagnostics(const std::vector<Diagnostic>& diags, bool quiet) {
  if (quiet) return;
  for (const Diagnostic& d : diags) std::cerr << d.format() << "\n";
}

int run_migrate(const MigrateArgs& given) {
  MigrateArgs a = given;
  if (a.to == "cuda") {  // the CUDA the output is written for: --cuda-version, else the installed nvcc's
    if (a.options.cuda_version.empty()) {
      const auto v = rules::installed_nvcc_version();
      a.options.cuda_version = v ? v->str() : "13.0";
    } else if (const auto v = rules::parse_cuda_version(a.options.cuda_version)) {
      a.options.cuda_version = v->str();
    } else {
      throw std::invalid_argument("--cuda-version " + a.options.cuda_version + ": not a version (e.g. 13.0, 12.4)");
    }
  } else if (!a.options.cuda_version.empty()) {
    throw std::invalid_argument("--cuda-version applies to --to cuda only");
  }
  const auto target = targets::make_target(a.to, a.options);
  if (!a.from.empty() && a.from != target->source_dialect())
    throw std::invalid_argument("target '" + a.to + "' migrates from " +
                                std::string(target->source_dialect()) + ", not from '" + a.from + "'");
  std::error_code ec;
  if (!fs::exists(a.path, ec)) throw std::invalid_argument(a.path + ": no such file or directory");

  if (!fs::is_directory(a.path, ec)) {
    // One file: to stdout, or to -o FILE.
    project::TextRead read = project::read_source(a.path, a.path, a.max_mib << 20);
    print_diagnostics(read.problems, a.quiet);
    if (!read.text) return kExitUsage;
    if (!a.output.empty() && fs::exists(a.output, ec) && fs::equivalent(a.output, a.path, ec))
      throw std::invalid_argument("refusing to overwrite the input file " + a.path);
    // A build file given alone (Makefile, CMakeLists.txt, *.mk, *.cmake) takes the build-file path.
    const project::FileKind kind = project::classify(fs::path(a.path).filename());
    if (kind == project::FileKind::CMake || kind == project::FileKind::Makefile) {
      const std::string arch = a.arch;  // empty: the target's default
      const auto b = buildsys::migrate_build_file(a.to, fs::path(a.path).filename().string(), kind, *read.text,
                                                  {arch, a.options.cuda_version.empty() ? "13.0" : a.options.cuda_version});
      const std::string out = b ? b->output : *read.text;
      if (a.output.empty()) std::cout << out;
      else project::write_atomically(a.output, out);
      if (b) print_diagnostics(b->diagnostics, a.quiet);
      return kExitOk;
    }
    std::vector<targets::SourceView> views{{fs::path(a.path).filename().string(), *read.text}};
    targets::ProjectContext ctx;
    ctx.single_file = true;
    ctx.defined_macros = migrate::defined_macros(views);
    target->prepare_project(views, ctx);
    migrate::FileResult r = migrate::migrate_buffer(a.path, *read.text, *target, a.options, ctx);
    if (a.output.empty()) std::cout << r.output;
    else project::write_atomically(a.output, r.output);
    if (!a.output.empty())  // files a target generates beside its output (cann: kernel skeletons)
      for (const migrate::SideOutput& side : r.side_outputs)
        project::write_atomically(fs::path(a.output).parent_path() / side.name, side.content);
    print_diagnostics(r.diagnostics, a.quiet);
    bool errors = false;
    for (const auto& d : r.diagnostics) errors = errors || d.severity == Severity::Error;
    return errors ? kExitFindings : kExitOk;
  }

  if (a.output.empty())
    throw std::invalid_argument("migrating a directory needs an output folder: -o OUT");
  migrate::TreeOptions tree;
  tree.input = a.path;
  tree.output = a.output;
  tree.jobs = a.jobs;
  tree.force = a.force;
  tree.arch = a.arch;  // empty: the target's default (gfx906, sm_90)
  tree.max_file_size = a.max_mib << 20;
  report::Progress progress(std::cerr, "migrate", !a.quiet && report::stderr_is_terminal());
  tree.on_start = progress.start_hook();
  tree.on_file_done = progress.done_hook();
  migrate::TreeResult r;
  try {
    r = migrate::migrate_tree(*target, a.options, tree);
  } catch (const migrate::TreeError& e) {
    progress.finish();
    std::cerr << "ferry: error: " << e.what() << "\n";
    return kExitUsage;
  }
  progress.finish();
  const nlohmann::json j = report::migration_to_json(r, a.to, a.path, a.output);
  if (!a.report_file.empty()) project::write_atomically(a.report_file, j.dump(2) + "\n");
  report::record_migration(a.output, j);  // OUT/.ferry/report.json: what `ferry report` starts from
  if (!a.sarif_file.empty()) project::write_atomically(a.sarif_file, report::render_report(a.output, "sarif"));
  if (!a.html_file.empty()) project::write_atomically(a.html_file, report::render_report(a.output, "html"));
  if (a.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    print_diagnostics(r.diagnostics, a.quiet);
    std::cout << report::migration_summary(r);
    const auto& rd = r.round;  // rounds (docs/rounds.md)
    std::cout << "  round " << rd.round << ": " << rd.unchanged << " unchanged, " << rd.merged << " merged, "
              << rd.conflicted << " with conflicts, " << rd.edited_by_hand << " edited by hand, " << rd.removed
              << " removed, " << rd.renamed << " renamed, " << rd.orphaned << " orphaned"
              << (rd.recovered ? ", " + std::to_string(rd.recovered) + " recovered from an interrupted run" : "")
              << "; diagnostics opened " << rd.opened << ", closed " << rd.closed << "\n";
  }
  bool errors = false;
  for (const auto& d : r.diagnostics) errors = errors || d.severity == Severity::Error;
  return errors ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> setup_migrate(CLI::App& sub) {
  auto a = std::make_shared<MigrateArgs>();
  sub.add_option("path", a->path, "CUDA file or project folder (never modified)")->required();
  sub.add_option("-o,--output", a->output, "output file or folder (a file goes to stdout without it)");
  sub.add_option("--to", a->to, "target: hip (CUDA→HIP)")->capture_default_str();
  sub.add_option("--from", a->from, "source dialect, checked against the target (cuda)");
  sub.add_option("-j,--jobs", a->jobs, "parallel workers")->capture_default_str();
  sub.add_option("--launch", a->options.launch, "kernel launches: chevron (keep <<<>>>) or ggl (hipLaunchKernelGGL)")
      ->capture_default_str();
  sub.add_option("--blas", a->options.blas, "cuBLAS maps to: hipblas or rocblas")->capture_default_str();
  sub.add_option("--sparse", a->options.sparse, "cuSPARSE maps to: hipsparse or rocsparse")->capture_default_str();
  sub.add_flag("--hip-data-types", a->options.hip_data_types,
               "cudaDataType -> hipDataType in every library's calls (default: the library's own type where it has one)");
  sub.add_option("--hip-version", a->options.hip_version,
                 "HIP release to write code for: X.Y or a profile (ferry targets); default: the installed HIP");
  sub.add_option("--cuda-version", a->options.cuda_version,
                 "cuda target: the CUDA release the output is written for (default: the installed nvcc's, else 13.0)");
  sub.add_option("--rules", a->options.user_rule_files, "extra rule table(s); rows override built-in ones");
  sub.add_flag("--rewrite-strings", a->options.rewrite_strings,
               "hip: also rename API names inside string literals (messages), as hipify-clang can");
  sub.add_flag("!--no-wave64-fix", a->options.wave64_fix,
               "keep 32-lane assumptions as written (hip: by default lane ids, warp indices, warp widths, "
               "reductions, lane masks and per-warp slots are rewritten for 64-lane wavefronts where provably safe)");
  sub.add_flag("--json", a->json, "print the JSON report instead of the text summary");
  sub.add_option("--report", a->report_file, "also write the JSON report to this file");
  sub.add_option("--sarif", a->sarif_file, "also write the diagnostics as SARIF 2.1.0 to this file");
  sub.add_option("--html", a->html_file, "also write the self-contained HTML report to this file");
  sub.add_flag("--force", a->force, "discard hand edits of outputs instead of merging them, or write into a non-Ferry folder");
  sub.add_option("--arch", a->arch,
                 "GPU architecture written into migrated build files (hip: --offload-arch/GPU_TARGETS, default gfx906; "
                 "cuda: -arch/CMAKE_CUDA_ARCHITECTURES, default sm_90)");
  sub.add_flag("-q,--quiet", a->quiet, "do not print diagnostics or the progress bar");
  sub.add_option("--max-file-size", a->max_mib, "largest source file parsed, in MiB")->capture_default_str();
  return [a] { return run_migrate(*a); };
}

}  // namespace ferry::cli
