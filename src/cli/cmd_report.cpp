// `ferry report OUT --format json|sarif|html -o FILE`: the report of a migrated tree, from what
// migrate, the rounds and verify left in OUT/.ferry/ (docs/report-schema.md).
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "project/project.h"
#include "report/bundle.h"

namespace ferry::cli {
namespace {

struct ReportArgs {
  std::string out;
  std::string format = "html";
  std::string file;
};

int run_report(const ReportArgs& a) {
  const std::string text = report::render_report(a.out, a.format);
  if (a.file.empty() || a.file == "-") std::cout << text;
  else project::write_atomically(a.file, text);
  return kExitOk;
}

}  // namespace

std::function<int()> setup_report(CLI::App& sub) {
  auto a = std::make_shared<ReportArgs>();
  sub.add_option("output", a->out, "a folder written by ferry migrate")->required()->check(CLI::ExistingDirectory);
  sub.add_option("--format", a->format, "json (source of truth), sarif (SARIF 2.1.0) or html (self-contained page)")
      ->check(CLI::IsMember({"json", "sarif", "html"}))
      ->capture_default_str();
  sub.add_option("-o,--output-file", a->file, "write the report here (default: stdout)");
  return [a] { return run_report(*a); };
}

}  // namespace ferry::cli
