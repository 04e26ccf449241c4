#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "buildsys/build_files.h"
#include "cli/commands.h"
#include "lex/code_view.h"
#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/json_report.h"
#include "report/progress.h"

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
  std::string arch;  // empty: the target's default profile
  std::string sarif_file;
  std::string html_file;
  bool timings = false;
};

void print_diagnostics(const std::vector<Diagnostic>& diags, bool quiet) {
  if (quiet) return;
  for (const Diagnostic& d : diags) std::cerr << d.format() << "\n";
}

int run_migrate(const MigrateArgs& args) {
  // --timings: every phase adds its CPU time to one table, printed to stderr at the end.
  MigrateArgs a = args;
  PhaseTimes times;
  if (a.timings) a.options.timings = &times;
  struct PrintTimes {
    const PhaseTimes* times;
    ~PrintTimes() {
      if (times) std::cerr << "ferry: CPU time by phase (--timings)\n" << times->table();
    }
  } print_times{a.timings ? &times : nullptr};
  PhaseClock clock(a.options.timings);
  const auto target = targets::make_target(a.to, a.options);
  clock.lap("load target");
  if (!a.from.empty() && a.from != target->source_dialect())
    throw std::invalid_argument("target '" + a.to + "' migrates from " + std::string(target->source_dialect()) +
                                ", not from '" + a.from + "'");
  std::error_code ec;
  if (!fs::exists(a.path, ec)) throw std::invalid_argument(a.path + ": no such file or directory");

  if (!fs::is_directory(a.path, ec)) {
    // One file: to stdout, or to -o FILE.
    clock.reset();
    project::TextRead read = project::read_source(a.path, a.path, a.max_mib << 20);
    clock.lap("read");
    print_diagnostics(read.problems, a.quiet);
    if (!read.text) return kExitUsage;
    if (!a.output.empty() && fs::exists(a.output, ec) && fs::equivalent(a.output, a.path, ec))
      throw std::invalid_argument("refusing to overwrite the input file " + a.path);
    // A build file given alone (Makefile, CMakeLists.txt, *.mk, *.cmake) takes the build-file path.
    const project::FileKind kind = project::classify(fs::path(a.path).filename());
    if (kind == project::FileKind::CMake || kind == project::FileKind::Makefile) {
      const std::string arch = a.arch.empty() ? std::string(target->info().default_profile) : a.arch;
      buildsys::Options bo;  // no sources here: no SourceFacts
      bo.arch = arch;
      const auto b = target->migrate_build_file(fs::path(a.path).filename().string(), kind, *read.text, bo);
      const std::string out = b ? b->output : *read.text;
      if (a.output.empty()) std::cout << out;
      else project::write_atomically(a.output, out);
      if (b) print_diagnostics(b->diagnostics, a.quiet);
      return kExitOk;
    }
    clock.reset();
    std::optional<lex::CodeView> lexed(std::in_place, *read.text);  // once: the pre-passes, the migration
    clock.lap("lex");
    std::vector<targets::SourceView> views{{fs::path(a.path).filename().string(), *read.text, &lexed}};
    targets::ProjectContext ctx;
    ctx.single_file = true;
    clock.reset();
    target->prepare_project(views, ctx);
    clock.lap("pre-passes (one sweep)");
    migrate::FileResult r = migrate::migrate_buffer(a.path, *read.text, *target, a.options, ctx, &*lexed);
    clock.reset();
    if (a.output.empty()) std::cout << r.output;
    else project::write_atomically(a.output, r.output);
    clock.lap("write");
    if (!a.output.empty())  // files a target generates beside its output (cann: kernel skeletons)
      for (const migrate::SideOutput& side : r.side_outputs)
        project::write_atomically(fs::path(a.output).parent_path() / side.name, side.content);
    print_diagnostics(r.diagnostics, a.quiet);
    bool errors = false;
    for (const auto& d : r.diagnostics) errors = errors || d.severity == Severity::Error;
    return errors ? kExitFindings : kExitOk;
  }

  if (a.output.empty()) throw std::invalid_argument("migrating a directory needs an output folder: -o OUT");
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
  nlohmann::json j = report::migration_to_json(r, a.to, a.path, a.output);
  // The per-file records are in `j` now: the summary is all that is still read of them.
  const std::string summary = a.json ? std::string() : report::migration_summary(r);
  std::vector<migrate::FileReport>().swap(r.files);
  if (!a.report_file.empty()) project::write_atomically(a.report_file, j.dump(2) + "\n");
  // OUT/.ferry/report.json: what `ferry report` starts from (j is moved there unless printed below)
  report::record_migration(a.output, a.json ? nlohmann::json(j) : std::move(j));
  if (!a.sarif_file.empty()) project::write_atomically(a.sarif_file, report::render_report(a.output, "sarif"));
  if (!a.html_file.empty()) project::write_atomically(a.html_file, report::render_report(a.output, "html"));
  if (a.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    print_diagnostics(r.diagnostics, a.quiet);
    std::cout << summary;
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
  add_target_options(sub, a->options);
  sub.add_option("--rules", a->options.user_rule_files, "extra rule table(s); rows override built-in ones");
  sub.add_flag("--json", a->json, "print the JSON report instead of the text summary");
  sub.add_option("--report", a->report_file, "also write the JSON report to this file");
  sub.add_option("--sarif", a->sarif_file, "also write the diagnostics as SARIF 2.1.0 to this file");
  sub.add_option("--html", a->html_file, "also write the self-contained HTML report to this file");
  sub.add_flag("--force", a->force,
               "discard hand edits of outputs instead of merging them, or write into a non-Ferry folder");
  sub.add_option("--arch", a->arch,
                 "GPU architecture written into migrated build files (hip: --offload-arch/GPU_TARGETS; cuda: "
                 "-arch/CMAKE_CUDA_ARCHITECTURES); default: the target's profile (gfx906 for hip, sm_90 for cuda)");
  sub.add_flag("-q,--quiet", a->quiet, "do not print diagnostics or the progress bar");
  sub.add_option("--max-file-size", a->max_mib, "largest source file parsed, in MiB")->capture_default_str();
  sub.add_flag("--timings", a->timings,
               "print the CPU time of each phase (lexing, pre-passes, passes, rules) to stderr");
  return [a] { return run_migrate(*a); };
}

}  // namespace ferry::cli
