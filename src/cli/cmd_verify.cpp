#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "analysis/profile.h"
#include "cli/commands.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/progress.h"
#include "targets/target.h"
#include "verify/verify.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct VerifyArgs {
  std::string path;
  std::string arch;
  bool cuda = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  unsigned timeout_s = 300;
  std::string hipcc = "hipcc";
  std::string nvcc = "nvcc";
  std::string python;
  std::vector<std::string> rocm_include;
  std::vector<std::string> defines;
  std::string compile_commands;
  std::vector<std::string> exclude;
  std::vector<std::string> only;
  bool no_original_check = false;
  std::string original_arch;
  bool no_cache = false;
  bool json = false;
  std::string report_file;
  bool record = true;
  bool quiet = false;
};

int run_verify(const VerifyArgs& a) {
  verify::VerifyOptions o;
  o.tree = a.path;
  o.mode = a.cuda ? verify::Mode::Original : verify::Mode::Migrated;
  std::string arch = a.arch;
  if (arch.empty()) {
    // The target of the tree decides the default (its TargetInfo::default_profile: gfx906 for hip,
    // sm_90 for cuda); a tree without a manifest is taken for HIP output; --cuda compiles CUDA.
    std::string target;
    try {
      const auto m = nlohmann::json::parse(project::read_file(fs::path(a.path) / ".ferry" / "manifest.json"));
      target = m.value("target", "");
    } catch (const std::exception&) {
    }
    const targets::TargetInfo* t = targets::find_target(target);
    if (a.cuda) arch = "sm_90";
    else if (!t) arch = "gfx906";
    else if (t->default_profile.empty())
      throw std::invalid_argument(
          "a " + target +
          " tree has no compiler Ferry can drive (see 'ferry targets'); pass --arch to compile it for a GPU profile anyway");
    else arch = t->default_profile;
  }
  o.profiles = analysis::parse_profile_list(arch);  // throws invalid_argument naming the known ones
  if (a.cuda)
    for (const analysis::Profile* p : o.profiles)
      if (p->toolchain != "nvcc")
        throw std::invalid_argument("--cuda compiles the original with nvcc: '" + p->name +
                                    "' is not an NVIDIA profile");
  o.jobs = std::max(1u, a.jobs);
  o.timeout = std::chrono::seconds(std::max(1u, a.timeout_s));
  if (!a.compile_commands.empty()) o.compile_commands = fs::path(a.compile_commands);
  if (!a.python.empty()) o.pythons = {a.python};
  if (!a.rocm_include.empty()) o.rocm_include.assign(a.rocm_include.begin(), a.rocm_include.end());
  else o.rocm_include = verify::rocm_include_from_env();
  for (const std::string& d : a.defines) {
    if (d.empty() || d.front() == '=' || d.find_first_of(" \t\n") != std::string::npos)
      throw std::invalid_argument("--define '" + d + "': expected NAME or NAME=VALUE");
    o.defines.push_back(d.starts_with("-D") ? d.substr(2) : d);
  }
  o.exclude = a.exclude;
  o.only = a.only;
  o.check_original = !a.no_original_check;
  if (!a.original_arch.empty()) {
    o.original_profile = analysis::find_profile(a.original_arch);
    if (!o.original_profile) throw std::invalid_argument("unknown --original-arch '" + a.original_arch + "'");
  }
  if (!a.no_cache) o.cache_dir = verify::default_cache_dir();

  bool need_hipcc = false, need_nvcc = false;
  for (const analysis::Profile* p : o.profiles) (p->toolchain == "nvcc" ? need_nvcc : need_hipcc) = true;
  o.hipcc = verify::locate_toolchain(a.hipcc, "/usr/bin/hipcc");
  o.nvcc = verify::locate_toolchain(a.nvcc, "/usr/local/cuda/bin/nvcc");
  if (need_hipcc && o.hipcc.empty())
    throw std::invalid_argument("hipcc not found (" + a.hipcc + "): install Debian's hipcc or pass --hipcc PATH");
  if (need_nvcc && o.nvcc.empty())
    throw std::invalid_argument("nvcc not found (" + a.nvcc + "): install the CUDA toolkit or pass --nvcc PATH");

  report::Progress progress(std::cerr, "verify", !a.quiet && report::stderr_is_terminal());
  o.on_start = progress.start_hook();
  o.on_file_done = progress.done_hook();
  verify::SubprocessRunner runner;
  verify::VerifyResult r = verify::run_verify(o, runner);
  progress.finish();
  if (o.mode == verify::Mode::Migrated && o.check_original && r.input) {
    const analysis::Profile* op = o.original_profile;
    if (!op) op = verify::default_original_profile(r.target);
    const bool orig_nvcc = op && op->toolchain == "nvcc";
    if ((orig_nvcc ? o.nvcc : o.hipcc).empty())
      r.notes.push_back(std::string(orig_nvcc ? "nvcc" : "hipcc") +
                        " not found: originals could not be compiled, so pre-existing errors count as unknown");
  }
  const nlohmann::json j = verify::to_json(r);
  if (!a.report_file.empty()) project::write_atomically(a.report_file, j.dump(2) + "\n");
  // The last result of a migrated tree lives beside its manifest, for `ferry status` and `ferry report`.
  std::error_code ec;
  if (a.record && o.mode == verify::Mode::Migrated && fs::exists(fs::path(a.path) / ".ferry" / "manifest.json", ec))
    report::record_verify(a.path, j);
  if (a.json) std::cout << j.dump(2) << "\n";
  else std::cout << verify::text_summary(r);
  return verify::exit_code(r) == 0 ? kExitOk : kExitFindings;
}

}  // namespace

std::function<int()> setup_verify(CLI::App& sub) {
  auto a = std::make_shared<VerifyArgs>();
  sub.add_option("path", a->path, "migrated output folder (or, with --cuda, the original CUDA tree)")
      ->required()
      ->check(CLI::ExistingDirectory);
  sub.add_option("--arch", a->arch, "target profiles, comma-separated (gfx906,gfx90a,sm_90; see 'ferry targets')");
  sub.add_flag("--cuda", a->cuda, "compile an original CUDA tree with nvcc (default --arch sm_90)");
  sub.add_option("-j,--jobs", a->jobs, "parallel compiles")->capture_default_str();
  sub.add_option("--timeout", a->timeout_s, "seconds allowed to one compile")->capture_default_str();
  sub.add_option("--hipcc", a->hipcc, "hipcc to use")->capture_default_str();
  sub.add_option("--nvcc", a->nvcc, "nvcc to use")->capture_default_str();
  sub.add_option("--python", a->python,
                 "Python whose PyTorch gives the include paths of units that include torch/ATen/c10 headers "
                 "(default: $FERRY_PYTHON, python3, /usr/bin/python3)");
  sub.add_option("--rocm-include", a->rocm_include,
                 "include root of the ROCm libraries' headers (scripts/rocm-headers.sh DEST: DEST/5.3/include), "
                 "given to hipcc as -isystem; repeatable (default: $FERRY_ROCM_INCLUDE, ':'-separated). "
                 "Units compile against them (-c); nothing is linked");
  sub.add_option("--define", a->defines,
                 "NAME or NAME=VALUE the target build defines (ggml's HIP build: GGML_USE_HIP), given as -D to "
                 "every compile of the tree, not to the originals; repeatable");
  sub.add_option("--compile-commands", a->compile_commands,
                 "compilation database (default: compile_commands.json in the tree, the input or build*/)");
  sub.add_option("--exclude", a->exclude, "skip files under this path (relative to the tree)");
  sub.add_option("--only", a->only, "compile only this translation unit (relative to the tree); repeatable");
  sub.add_flag("--no-original-check", a->no_original_check, "do not compile originals to find pre-existing errors");
  sub.add_option("--original-arch", a->original_arch, "profile the originals are compiled for (default sm_90)");
  sub.add_flag("--no-cache", a->no_cache, "do not reuse or store original-check results (~/.cache/ferry/verify)");
  sub.add_flag("--json", a->json, "print the JSON report instead of the text summary");
  sub.add_option("--report", a->report_file, "also write the JSON report to this file");
  sub.add_flag("--record,!--no-record", a->record,
               "keep the result in OUT/.ferry/verify.json for ferry status and ferry report (default: on)");
  sub.add_flag("-q,--quiet", a->quiet, "no progress bar");
  return [a] { return run_verify(*a); };
}

}  // namespace ferry::cli
