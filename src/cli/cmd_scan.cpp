#include <filesystem>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "project/project.h"
#include "report/progress.h"
#include "scan/scan.h"

namespace ferry::cli {
namespace {

struct ScanArgs {
  std::string path;
  scan::ScanOptions options;
  bool json = false;
  bool list_uses = false;
  bool all_files = false;
  bool quiet = false;
  std::string report_file;
  std::uintmax_t max_mib = 64;
};

int run_scan(ScanArgs& a) {
  a.options.max_file_size = a.max_mib << 20;
  report::Progress progress(std::cerr, "scan", !a.quiet && report::stderr_is_terminal());
  a.options.on_start = progress.start_hook();
  a.options.on_file_done = progress.done_hook();
  const scan::Inventory inv = scan::scan_project(a.path, a.options);
  progress.finish();
  if (!a.quiet)
    for (const Diagnostic& d : inv.problems) std::cerr << d.format() << "\n";
  const nlohmann::json j = scan::inventory_to_json(inv);
  if (!a.report_file.empty()) project::write_atomically(a.report_file, j.dump(2) + "\n");
  if (inv.fatal) {
    std::cerr << "ferry: error: cannot scan " << a.path << "\n";
    if (a.json) std::cout << j.dump(2) << "\n";
    return kExitUsage;
  }
  if (a.json) std::cout << j.dump(2) << "\n";
  else std::cout << scan::inventory_summary(inv, a.list_uses, a.all_files);
  return kExitOk;
}

}  // namespace

std::function<int()> setup_scan(CLI::App& sub) {
  auto a = std::make_shared<ScanArgs>();
  a->options.jobs = std::max(1u, std::thread::hardware_concurrency());
  sub.add_option("path", a->path, "project folder or single file (read only)")->required();
  sub.add_option("--targets", a->options.targets,
                 "targets to evaluate, comma-separated (default: every target "
                 "migrating from --from)")
      ->delimiter(',');
  sub.add_option("--from", a->options.from, "source dialect of the project")->capture_default_str();
  sub.add_option("-j,--jobs", a->options.jobs, "parallel workers")->capture_default_str();
  sub.add_option("--rules", a->options.target_options.user_rule_files,
                 "extra rule table(s); rows override built-in ones");
  sub.add_flag("--json", a->json,
               "print the JSON inventory (schema: docs/scan.md) instead of the "
               "text summary");
  sub.add_option("--report", a->report_file, "also write the JSON inventory to this file");
  sub.add_flag("--files", a->all_files,
               "list every file with GPU uses and every build file (default: "
               "counts and the heaviest files)");
  sub.add_flag("--uses", a->list_uses, "list every GPU API use (file:line:col) before the summary");
  sub.add_flag("-q,--quiet", a->quiet, "do not print input problems or the progress bar");
  sub.add_option("--max-file-size", a->max_mib, "largest file parsed, in MiB")->capture_default_str();
  return [a] { return run_scan(*a); };
}

}  // namespace ferry::cli
