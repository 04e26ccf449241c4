// `ferry opcheck SPEC.json`: operator precision and speed, per dtype and shape, of candidate
// implementations against a reference (docs/opcheck.md).
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "opcheck/opcheck.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/html.h"

namespace ferry::cli {
namespace {

namespace fs = std::filesystem;

struct OpcheckArgs {
  std::string spec;
  std::vector<std::string> vars;
  std::vector<std::string> only;
  std::string python;
  double timeout_s = 900;
  bool json = false;
  bool quiet = false;
  std::string report_file;
  std::string html_file;
  std::string record;
};

int run_opcheck(const OpcheckArgs& a) {
  std::map<std::string, std::string> vars;
  for (const std::string& v : a.vars) {
    const auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--var " + v + ": expected NAME=VALUE");
    vars[v.substr(0, eq)] = v.substr(eq + 1);
  }
  if (!a.record.empty() && !fs::exists(fs::path(a.record) / ".ferry" / "manifest.json"))
    throw std::invalid_argument("--record " + a.record +
                                ": not a tree written by ferry migrate (no .ferry/manifest.json)");
  const opcheck::Spec spec = opcheck::load_spec(a.spec, vars);
  opcheck::Options o;
  o.only = a.only;
  o.runners.timeout_s = a.timeout_s;
  if (!a.python.empty()) o.runners.python = a.python;
  else if (const char* p = std::getenv("FERRY_PYTHON"); p && *p) o.runners.python = p;
  const bool quiet = a.quiet || a.json;
  auto save = [&a](const opcheck::Result& r) {
    const nlohmann::json j = opcheck::to_json(r);
    if (!a.report_file.empty()) project::write_atomically(a.report_file, j.dump(2) + "\n");
    if (!a.html_file.empty()) project::write_atomically(a.html_file, report::opcheck_to_html(j));
    if (!a.record.empty()) project::write_atomically(fs::path(a.record) / report::kOpcheckResultFile, j.dump(2) + "\n");
    return j;
  };
  // Each operator's table is printed, and the files rewritten, as soon as it is done: a run cut
  // short by a time limit keeps what it measured.
  bool first = true;
  const opcheck::Result r = opcheck::run_opcheck(
      spec, o,
      [quiet](const std::string& m) {
        if (!quiet) std::cerr << "opcheck: " << m << "\n";
      },
      [&](const opcheck::Result& so_far) {
        (void)save(so_far);
        if (a.json) return;
        if (first && so_far.torch.is_object())
          std::cout << "torch " << so_far.torch.value("torch", "?") << " on " << so_far.torch.value("device", "?")
                    << "\n";
        first = false;
        std::cout << opcheck::operator_text(so_far.operators.back()) << std::flush;
      });
  const nlohmann::json j = save(r);
  if (a.json) std::cout << j.dump(2) << "\n";
  else std::cout << opcheck::summary_text(r);
  return r.ok() ? kExitOk : kExitFindings;
}

}  // namespace

std::function<int()> setup_opcheck(CLI::App& sub) {
  auto a = std::make_shared<OpcheckArgs>();
  sub.footer(
      "Exit code: 0 every candidate within its tolerances, 1 a failure or an implementation error, 2 bad "
      "arguments or a bad spec (FRY9301). Unsupported cases do not fail.");
  sub.add_option("spec", a->spec, "JSON spec: operators, shapes, dtypes, seeds, tolerances, implementations")
      ->required()
      ->check(CLI::ExistingFile);
  sub.add_option("--var", a->vars, "NAME=VALUE for ${NAME} in library paths (repeatable; else the environment)");
  sub.add_option("--only", a->only, "check only these operators (repeatable)");
  sub.add_option("--python", a->python,
                 "Python interpreter for torch implementations (default: $FERRY_PYTHON or python3)");
  sub.add_option("--timeout", a->timeout_s, "seconds the Python runner may take per case")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_flag("--json", a->json, "print the JSON result instead of the tables");
  sub.add_option("--report", a->report_file, "also write the JSON result to this file");
  sub.add_option("--html", a->html_file, "also write the operator page (self-contained HTML) to this file");
  sub.add_option("--record", a->record, "also keep the result in a migrated tree OUT (ferry report OUT shows it)");
  sub.add_flag("-q,--quiet", a->quiet, "no progress lines on stderr");
  return [a] { return run_opcheck(*a); };
}

}  // namespace ferry::cli
