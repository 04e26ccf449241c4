// `ferry diffrun`: does the port compute what the reference computes, and how fast?
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "diffrun/bisect.h"
#include "diffrun/constructs.h"
#include "diffrun/diffrun.h"
#include "diffrun/launch_bisect.h"
#include "diffrun/runner.h"
#include "diffrun/suite.h"
#include "diffrun/wave64_sides.h"
#include "project/project.h"

namespace ferry::cli {
namespace {

struct DiffrunArgs {
  std::string spec_file;
  diffrun::Spec spec;  // command-line values; those given override the spec file's
  bool json = false;
  bool quiet = false;
  bool no_stdout = false;
  bool ulp_float = false;
  bool nan_equal = false;
  bool no_fail_check = false;
  std::string report_file;
  bool wave64 = false;
  diffrun::Wave64Sides w64;
  // Suite mode (--suite DIR).
  std::string suite;
  std::string suite_list;
  std::string suite_out;
  std::string extra_args;
  unsigned jobs = 1;
  bool force = false;
  // --bisect (docs/wave64.md, "Where a port differs").
  bool bisect = false;
  std::string bisect_unfixed;
  std::size_t bisect_max = 40;
};

// The originals migrated to HIP without the wave64 fixes (what --bisect compares the port with).
void migrate_unfixed(const std::string& ferry, const std::filesystem::path& from, const std::filesystem::path& to,
                     double timeout_s) {
  const diffrun::RunResult m =
      diffrun::run_command({diffrun::shell_quote(ferry) + " migrate " + diffrun::shell_quote(from.string()) +
                                " --to hip -q --no-wave64-fix -o " + diffrun::shell_quote(to.string()),
                            ".", "", timeout_s});
  if (!m.started || m.timed_out || m.signal != 0 || m.exit_code > 1)
    throw std::runtime_error("--bisect: ferry migrate --no-wave64-fix failed (" + m.status() +
                             "): " + m.err.substr(0, 2000));
}

std::string self_exe() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("--wave64: cannot find the ferry binary (/proc/self/exe)");
  return p.string();
}

std::string default_work(const std::string& key) {
  return (std::filesystem::temp_directory_path() / ("ferry-wave64-" + std::to_string(getuid())) /
          ("diffrun-" + std::to_string(std::hash<std::string>{}(key))))
      .string();
}

// --suite DIR: every program of DIR against its port (--port-dir, or DIR migrated to HIP into the
// results folder, or DIR itself when the reference runs as HIP: a HIP corpus at wave 32 vs 64).
int run_suite_mode(DiffrunArgs& a, const CLI::App& sub, diffrun::Spec s) {
  namespace fs = std::filesystem;
  auto given = [&](const char* opt) { return sub.count(opt) > 0; };
  for (const char* opt : {"--ref", "--port", "--ref-build", "--port-build", "--sources", "--ref-dir", "--file"})
    if (given(opt)) throw std::invalid_argument(std::string("--suite finds each program's sides itself; drop ") + opt);
  diffrun::SuiteOptions o;
  o.ref_root = fs::weakly_canonical(fs::absolute(a.suite));
  if (!fs::is_directory(o.ref_root)) throw std::invalid_argument("--suite: '" + a.suite + "' is not a folder");
  o.results = a.suite_out.empty() ? fs::path(default_work("suite|" + o.ref_root.string())) / "results"
                                  : fs::absolute(a.suite_out);
  fs::create_directories(o.results);
  o.list_file = a.suite_list;
  o.w64 = a.w64;
  o.w64.ferry = self_exe();
  // Suites are bounded: 120 s per run and 600 s per build unless told otherwise.
  if (!given("--timeout")) s.timeout_s = 120;
  if (!given("--build-timeout")) s.build_timeout_s = 600;
  o.base = s;
  o.extra_args = a.extra_args.empty() ? a.w64.args : a.extra_args;
  o.jobs = a.jobs;
  o.force = a.force;
  const bool quiet = a.quiet || a.json;
  if (given("--port-dir")) {
    o.port_root = fs::weakly_canonical(fs::absolute(a.spec.port.dir));
  } else if (a.w64.ref_api == "hip") {
    o.port_root = o.ref_root;
  } else {
    // Migrate the originals once; a later run reuses the port unless --force.
    o.port_root = o.results / "port";
    if (a.force || !fs::exists(o.port_root / ".ferry")) {
      if (!quiet)
        std::cerr << "diffrun: migrating " << o.ref_root.string() << " to HIP in " << o.port_root.string() << "\n";
      const diffrun::RunResult m = diffrun::run_command(
          {diffrun::shell_quote(o.w64.ferry) + " migrate " + diffrun::shell_quote(o.ref_root.string()) +
               " --to hip -q -o " + diffrun::shell_quote(o.port_root.string()),
           ".", "", s.build_timeout_s});
      if (!m.started || m.timed_out || m.signal != 0 || m.exit_code > 1)
        throw std::runtime_error("--suite: ferry migrate failed (" + m.status() + "): " + m.err.substr(0, 2000));
    }
  }
  o.bisect = a.bisect;
  if (a.bisect && a.w64.ref_api != "hip") {  // a HIP corpus has no wave64 fixes: its launches only
    o.bisect_max = a.bisect_max;
    o.unfixed_root = a.bisect_unfixed.empty() ? o.results / "port-unfixed" : fs::absolute(a.bisect_unfixed);
    if (a.bisect_unfixed.empty() && (a.force || !fs::exists(o.unfixed_root / ".ferry"))) {
      if (!quiet) std::cerr << "diffrun: migrating " << o.ref_root.string() << " without wave64 fixes for --bisect\n";
      migrate_unfixed(o.w64.ferry, o.ref_root, o.unfixed_root, s.build_timeout_s);
    }
  }
  const std::vector<diffrun::SuiteEntry> entries = diffrun::run_suite(o, [quiet](const std::string& m) {
    if (!quiet) std::cerr << "diffrun: " << m << "\n";
  });
  const nlohmann::json j = diffrun::suite_json(o, entries);
  project::write_atomically(o.results / "results.json",
                            j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  project::write_atomically(o.results / "results.html", diffrun::suite_html(j));
  if (!a.report_file.empty())
    project::write_atomically(a.report_file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (a.json) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else {
    std::cout << diffrun::suite_table(entries);
    std::cout << "results: " << (o.results / "results.json").string() << ", " << (o.results / "results.html").string()
              << "\n";
  }
  for (const diffrun::SuiteEntry& e : entries)
    if (e.verdict != "same") return kExitFindings;
  return kExitOk;
}

int run_diffrun(DiffrunArgs& a, const CLI::App& sub) {
  diffrun::Spec s;
  if (!a.spec_file.empty()) s = diffrun::load_spec(a.spec_file);
  auto given = [&](const char* opt) { return sub.count(opt) > 0; };
  const diffrun::Spec& c = a.spec;
  if (given("--ref-build")) s.ref.build = c.ref.build;
  if (given("--ref")) s.ref.run = c.ref.run;
  if (given("--ref-dir")) s.ref.dir = c.ref.dir;
  if (given("--port-build")) s.port.build = c.port.build;
  if (given("--port")) s.port.run = c.port.run;
  if (given("--port-dir")) s.port.dir = c.port.dir;
  if (given("--file")) s.files = c.files;
  if (given("--stdin")) s.stdin_file = c.stdin_file;
  if (a.no_stdout) s.compare_stdout = false;
  if (given("--ignore")) s.ignore = c.ignore;
  if (given("--rtol")) s.tol.rtol = c.tol.rtol;
  if (given("--atol")) s.tol.atol = c.tol.atol;
  if (given("--ulp")) s.tol.ulp = c.tol.ulp;
  if (a.ulp_float) s.tol.ulp_float = true;
  if (a.nan_equal) s.tol.nan_equal = true;
  if (given("--max-report")) s.max_report = c.max_report;
  if (given("--runs")) s.runs = c.runs;
  if (given("--timeout")) s.timeout_s = c.timeout_s;
  if (given("--cpu-timeout")) s.cpu_timeout_s = c.cpu_timeout_s;
  if (given("--build-timeout")) s.build_timeout_s = c.build_timeout_s;
  if (given("--fail-pattern")) s.fail_patterns = c.fail_patterns;
  if (a.no_fail_check) s.check_self_reports = false;
  if (!a.suite.empty()) {
    if (!a.wave64) throw std::invalid_argument("--suite runs programs on the wave64 CPU runtime: add --wave64");
    return run_suite_mode(a, sub, s);
  }
  diffrun::Wave64Sides w;  // the sides --wave64 built (--bisect builds variants beside them)
  if (a.wave64) {
    for (const char* opt : {"--ref", "--port", "--ref-build", "--port-build"})
      if (given(opt))
        throw std::invalid_argument(std::string("--wave64 builds and runs both sides itself; drop ") + opt);
    w = a.w64;
    w.ferry = self_exe();
    if (w.work.empty()) {
      const std::string key =
          std::filesystem::absolute(s.ref.dir).string() + "|" + std::filesystem::absolute(s.port.dir).string();
      w.work = default_work(key);
    }
    w.work = std::filesystem::absolute(w.work).string();
    diffrun::apply_wave64(w, s);
  }

  if (a.bisect && !a.wave64) throw std::invalid_argument("--bisect switches off the port's wave64 fixes: add --wave64");
  const bool quiet = a.quiet || a.json;
  auto log = [quiet](const std::string& m) {
    if (!quiet) std::cerr << "diffrun: " << m << "\n";
  };
  const diffrun::Outcome o = diffrun::run_diff(s, log);
  nlohmann::json j = diffrun::to_json(s, o);
  std::string bisect_text;
  if (a.wave64 && (o.verdict == "both-failed" || o.verdict == "different")) {
    const std::vector<diffrun::ConstructNote> notes = diffrun::unsupported_constructs(s.ref.dir, 5, s.port.dir);
    nlohmann::json cj = nlohmann::json::array();
    for (const diffrun::ConstructNote& n : notes) {
      cj.push_back({{"code", n.code}, {"file", n.file}, {"line", n.line}, {"message", n.message}});
      bisect_text += "note: " + n.file + ":" + std::to_string(n.line) + ": " + n.message + " [" + n.code + "]\n";
    }
    if (!notes.empty()) j["constructs"] = cj;
  }
  if (a.bisect && o.verdict == "different") {
    diffrun::LaunchBisectOptions lo;
    lo.port_dir = std::filesystem::weakly_canonical(std::filesystem::absolute(s.port.dir));
    lo.work = std::filesystem::path(w.work) / "bisect-launches";
    nlohmann::json bj = nlohmann::json::object();
    // A HIP reference (wave 32 against 64) has no wave64 fixes to switch off: launches only.
    if (w.ref_api != "hip") {
      diffrun::BisectOptions bo;
      bo.fixed_dir = lo.port_dir;
      bo.max_sites = a.bisect_max;
      if (!a.bisect_unfixed.empty()) {
        bo.unfixed_dir = std::filesystem::absolute(a.bisect_unfixed);
      } else {
        bo.unfixed_dir = std::filesystem::path(w.work) / "unfixed";
        log("bisect: migrating " + s.ref.dir + " without wave64 fixes");
        std::error_code ec;
        std::filesystem::remove_all(bo.unfixed_dir, ec);
        migrate_unfixed(w.ferry, std::filesystem::absolute(s.ref.dir), bo.unfixed_dir, s.build_timeout_s);
      }
      const diffrun::BisectResult b = diffrun::bisect_fixes(s, w, bo, log);
      bj = diffrun::to_json(b);
      bisect_text = diffrun::to_text(b);
      lo.fix_sites = b.sites;
    }
    const diffrun::LaunchBisect lb = diffrun::bisect_launches(s, lo, log);
    bj["launches"] = diffrun::to_json(lb);
    bisect_text += diffrun::to_text(lb);
    j["bisect"] = bj;
  }
  if (!a.report_file.empty())
    project::write_atomically(a.report_file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (a.json) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else std::cout << diffrun::to_text(s, o) << bisect_text;
  return o.same() ? kExitOk : kExitFindings;
}

}  // namespace

std::function<int()> setup_diffrun(CLI::App& sub) {
  auto a = std::make_shared<DiffrunArgs>();
  diffrun::Spec& s = a->spec;
  sub.footer(
      "Commands are shell text, run as /bin/sh -c CMD in the side's directory, stdin from --stdin "
      "or /dev/null. Verdicts: SAME (both exit 0, no failed self-check, equal outputs), DIFFERENT, "
      "BOTH FAILED, TIMEOUT (which side), BUILD FAILED. Exit code: 0 same, 1 anything else, 2 bad arguments.");
  sub.add_option("--spec", a->spec_file, "JSON spec file (see docs/diffrun.md); options override it");
  sub.add_option("--ref-build", s.ref.build, "command that builds the reference");
  sub.add_option("--ref", s.ref.run, "command that runs the reference");
  sub.add_option("--ref-dir", s.ref.dir, "working directory of the reference");
  sub.add_option("--port-build", s.port.build, "command that builds the port");
  sub.add_option("--port", s.port.run, "command that runs the port");
  sub.add_option("--port-dir", s.port.dir, "working directory of the port");
  sub.add_option("--file", s.files, "output file to compare, relative to each side's directory (repeatable)");
  sub.add_option("--stdin", s.stdin_file, "file given to both sides as standard input");
  sub.add_flag("--no-stdout", a->no_stdout, "do not compare standard output");
  sub.add_option("--ignore", s.ignore, "regex of lines to leave out of every comparison (repeatable)");
  sub.add_option("--rtol", s.tol.rtol, "relative tolerance")->capture_default_str();
  sub.add_option("--atol", s.tol.atol, "absolute tolerance")->capture_default_str();
  sub.add_option("--ulp", s.tol.ulp, "also accept numbers at most N units in the last place apart");
  sub.add_flag("--ulp-float", a->ulp_float, "count ULPs of float32 instead of float64");
  sub.add_flag("--nan-equal", a->nan_equal, "NaN equals NaN");
  sub.add_option("--max-report", s.max_report, "differences shown per output")->capture_default_str();
  sub.add_option("--runs", s.runs, "runs per side for timing (median)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--timeout", s.timeout_s, "seconds per run before its process group is killed")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--cpu-timeout", s.cpu_timeout_s,
                 "CPU seconds per run (each process; the run then counts as timed out): a limit that the load of a "
                 "shared machine does not eat into, unlike --timeout")
      ->check(CLI::PositiveNumber);
  sub.add_option("--build-timeout", s.build_timeout_s, "seconds per build")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub.add_option("--fail-pattern", s.fail_patterns,
                 "regex of an output line that reports a failed self-check, besides the built-in ones (repeatable)");
  sub.add_flag("--no-fail-check", a->no_fail_check,
               "do not read the outputs for failed self-checks ('Test FAILED', 'checksum mismatch')");
  sub.add_flag("--json", a->json, "print the JSON report");
  sub.add_option("--report", a->report_file, "also write the JSON report to this file");
  sub.add_flag("-q,--quiet", a->quiet, "no progress lines on stderr");
  auto* w64 = sub.add_option_group("wave64", "both sides on the wave64 CPU runtime (docs/wave64.md)");
  w64->add_flag(
      "--wave64", a->wave64,
      "build both sides with `ferry wave64 build` and run them on the CPU: the reference (the "
      "CUDA original, --ref-dir) with 32-lane warps, the port (the HIP port, --port-dir) with 64-lane wavefronts");
  w64->add_option("--sources", a->w64.sources, "the program's sources, relative to each side's dir (globs allowed)");
  w64->add_option("-I,--include", a->w64.include_dirs, "include folder, relative to each side's dir");
  w64->add_option("-D,--define", a->w64.defines, "macro for both builds");
  w64->add_option("--args", a->w64.args, "arguments of the program on both sides (shell words)");
  w64->add_option("--ref-wave", a->w64.ref_wave, "wave size of the reference (default: 32 for CUDA, 64 for HIP)");
  w64->add_option("--port-wave", a->w64.port_wave, "wave size of the port (default: 64 for HIP)");
  w64->add_option("--ref-api", a->w64.ref_api, "API of the reference: auto, cuda, hip")->capture_default_str();
  w64->add_option("--port-api", a->w64.port_api, "API of the port: auto, cuda, hip")->capture_default_str();
  w64->add_option("--device-model", a->w64.device_model,
                  "device model of both sides: gfx906 (60 CUs) or sm90 (132 SMs), so only the warp size differs; "
                  "native: each side its API's own (sm90 for CUDA, gfx906 for HIP)")
      ->check(CLI::IsMember({"gfx906", "sm90", "native"}))
      ->capture_default_str();
  w64->add_option("--wave64-flag", a->w64.build_flags, "extra `ferry wave64 build` option (repeatable), e.g. -O2");
  w64->add_option("--wave64-work", a->w64.work, "folder for both builds (default: a cache folder in $TMPDIR)");
  auto* suite = sub.add_option_group("suite", "every program of a tree (docs/diffrun.md, \"Suites\")");
  suite->add_option("--suite", a->suite,
                    "run every program of this tree (folders with .cu/.hip sources and a main) with --wave64: "
                    "the originals against --port-dir, or against their HIP migration");
  suite->add_option("--list", a->suite_list, "file naming the programs of --suite: `FOLDER [ARGS...]` per line");
  suite->add_option("--results", a->suite_out,
                    "folder of the suite's results (results.json, results.html, one JSON per program)");
  suite->add_option("--size-args", a->extra_args, "arguments added to every program's own (e.g. a size option)");
  suite->add_option("-j,--jobs", a->jobs, "programs run at once")->capture_default_str()->check(CLI::PositiveNumber);
  suite->add_flag("--force", a->force, "run programs that have a recorded result again (and migrate again)");
  w64->add_flag("--bisect", a->bisect,
                "for a DIFFERENT verdict, switch the port's wave64 fixes off one at a time (each line that differs "
                "from the original migrated with --no-wave64-fix) and report the first fix without which the port "
                "computes what the reference does");
  w64->add_option("--bisect-unfixed", a->bisect_unfixed,
                  "the port's tree (or folder) migrated without wave64 fixes (default: --bisect migrates the "
                  "reference with --no-wave64-fix)");
  w64->add_option("--bisect-max", a->bisect_max, "fix sites run at most per program")->capture_default_str();
  CLI::App* app = &sub;
  return [a, app] { return run_diffrun(*a, *app); };
}

}  // namespace ferry::cli
