// `ferry analyze PATH --target gfx906`: portability hazards of CUDA code on a hardware profile
// (analysis/hazards.h), as compiler-style lines, a summary or JSON; `--fix -o OUT` writes the
// input with the provably safe fixes applied. Exit: 0 clean, 1 hazards left, 2 bad usage.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "analysis/hazards.h"
#include "analysis/profile.h"
#include "analysis/wave64_fix.h"
#include "cli/commands.h"
#include "core/diagnostic_json.h"
#include "migrate/file_migration.h"
#include "project/project.h"
#include "targets/target.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct AnalyzeArgs {
  std::string path;
  std::string target = "gfx906";
  bool fix = false;
  std::string output;
  bool json = false;
  bool quiet = false;
  std::uintmax_t max_mib = 64;
};

struct Input {
  std::string display;  // what diagnostics show: the path as given, or root-relative in a tree
  std::string rel;      // where a fixed copy goes under OUT (a tree), empty for one file
  std::string text;
};

bool analyzable(project::FileKind k) {
  return k == project::FileKind::CudaSource || k == project::FileKind::CudaHeader ||
         k == project::FileKind::HipSource || k == project::FileKind::CppSource || k == project::FileKind::Header;
}

int run_analyze(const AnalyzeArgs& a) {
  const analysis::Profile* profile = analysis::find_profile(a.target);
  if (!profile) {
    std::string known;
    for (const auto& p : analysis::profiles()) known += (known.empty() ? "" : ", ") + p.name;
    throw std::invalid_argument("unknown --target '" + a.target + "' (known: " + known + ")");
  }
  std::error_code ec;
  if (!fs::exists(a.path, ec)) throw std::invalid_argument(a.path + ": no such file or directory");
  const bool tree = fs::is_directory(a.path, ec);
  if (a.fix && a.output.empty()) throw std::invalid_argument("--fix needs -o OUT: the input is never modified");
  if (!a.fix && !a.output.empty()) throw std::invalid_argument("-o OUT is only used with --fix");
  if (a.fix && fs::exists(a.output, ec) && fs::equivalent(a.output, a.path, ec))
    throw std::invalid_argument("refusing to write the fixes over the input " + a.path);

  std::vector<Diagnostic> problems;
  std::vector<Input> inputs;
  if (tree) {
    project::WalkOptions wo;
    wo.max_file_size = a.max_mib << 20;
    if (a.fix) wo.exclude_dirs.push_back(fs::absolute(a.output));
    project::Walk walk = project::walk_tree(a.path, wo);
    problems = std::move(walk.problems);
    for (const project::ProjectFile& f : walk.files) {
      if (!analyzable(f.kind)) continue;
      project::TextRead r = project::read_source(f.abs(walk.root), f.rel, a.max_mib << 20);
      problems.insert(problems.end(), r.problems.begin(), r.problems.end());
      if (r.text) inputs.push_back({f.rel, f.rel, std::move(*r.text)});
    }
  } else {
    project::TextRead r = project::read_source(a.path, a.path, a.max_mib << 20);
    problems = std::move(r.problems);
    if (!r.text) {
      for (const Diagnostic& d : problems) std::cerr << d.format() << "\n";
      return kExitUsage;
    }
    inputs.push_back({a.path, "", std::move(*r.text)});
  }

  // The FileMigration context needs a target for its bookkeeping; analyze reads CUDA.
  const targets::Options topts;
  const auto target = targets::make_target("hip", topts);
  const targets::ProjectContext pctx;
  std::vector<std::unique_ptr<migrate::FileMigration>> files;
  files.reserve(inputs.size());
  for (const Input& in : inputs)
    files.push_back(std::make_unique<migrate::FileMigration>(in.display, in.text, *target, topts, pctx));

  // Constants are shared across the tree (a header's WARP_SIZE or FULL_MASK seen from the .cu
  // files that include it); a warp-width constant is rewritten only when no analyzed file uses
  // it otherwise.
  std::map<std::string, long long> project_constants;
  std::set<std::string> conflicting;
  analysis::WarpConstantUses uses;
  for (const auto& f : files) {
    const analysis::FileFacts facts = analysis::collect_facts(*f);
    analysis::merge_project_constants(facts, project_constants, conflicting);
    analysis::record_warp_constant_uses(*f, facts, uses);
  }
  analysis::HazardOptions hopt;
  hopt.profile = profile;
  hopt.warp_uses = &uses;
  // The lane-math fixes are planned for the whole tree at once (analysis/wave64_fix.h): a group of
  // code that shares 32-lane assumptions is fixed together or not at all.
  analysis::Wave64FixPlan plan;
  if (analysis::wave64_checks_apply(*profile)) {
    std::vector<analysis::FileFacts> facts;
    facts.reserve(files.size());
    std::vector<analysis::Wave64FixInput> fix_inputs;
    for (const auto& f : files) facts.push_back(analysis::collect_facts(*f, &project_constants));
    for (std::size_t i = 0; i < files.size(); ++i) fix_inputs.push_back({inputs[i].display, files[i].get(), &facts[i]});
    analysis::Wave64FixOptions fopt;
    fopt.fix_masks = true;  // the output is CUDA: its _sync intrinsics keep their masks
    // The hints without --fix say what `migrate --to hip` does: the one-warp-per-wavefront form of
    // WMMA code is for 64-lane wavefronts only, never written into CUDA output.
    fopt.cuda_output = a.fix;
    plan = analysis::plan_wave64_fixes(fix_inputs, *profile, uses, fopt);
  }
  hopt.fixed_sites_applied = a.fix;

  std::vector<Diagnostic> diags;
  std::size_t files_with = 0, fixed_files = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    migrate::FileMigration& f = *files[i];
    const auto fp = plan.files.find(inputs[i].display);
    if (fp != plan.files.end()) {
      hopt.fixed_sites = &fp->second.fixed;
      hopt.unfixed_reasons = &fp->second.unfixed;
      hopt.harmless_sites = &fp->second.harmless;
      hopt.fixed_how = &fp->second.fixed_how;
      if (a.fix) analysis::apply_wave64_fixes(f, fp->second);
    } else {
      hopt.fixed_sites = nullptr;
      hopt.unfixed_reasons = nullptr;
      hopt.harmless_sites = nullptr;
      hopt.fixed_how = nullptr;
    }
    analysis::check_all(f, hopt, &project_constants);
    if (!f.diagnostics().empty()) ++files_with;
    diags.insert(diags.end(), f.diagnostics().begin(), f.diagnostics().end());
    if (!a.fix) continue;
    const std::string out = f.edits().apply(f.source());
    if (out != f.source()) ++fixed_files;
    const fs::path dest = tree ? fs::path(a.output) / inputs[i].rel : fs::path(a.output);
    if (tree) fs::create_directories(dest.parent_path());
    project::write_atomically(dest, out);
  }
  sort_diagnostics(diags);

  std::map<Diag, std::size_t> by_code;
  std::size_t left = 0, fixed = 0;
  std::size_t harmless = 0;
  for (const Diagnostic& d : diags) {
    ++by_code[d.code];
    if (d.severity != Severity::Note) ++left;
    else if (d.hint.starts_with("nothing to change")) ++harmless;
    else ++fixed;
  }
  const bool wave64 = analysis::wave64_checks_apply(*profile);
  const std::string scope_note = wave64
                                     ? ""
                                     : profile->name + " has " + std::to_string(profile->wave_size) +
                                           "-lane warps: the wave64 checks (FRY22xx) do not apply; only the resource "
                                           "limits (FRY32xx) were checked";

  if (a.json) {
    nlohmann::json j;
    j["target"] = profile->name;
    j["profile"] = {{"vendor", profile->vendor},
                    {"wave_size", profile->wave_size},
                    {"lds_static_bytes", profile->lds_static_bytes},
                    {"lds_max_bytes", profile->lds_max_bytes},
                    {"max_threads_per_block", profile->max_threads_per_block}};
    j["wave64_checks"] = wave64;
    if (!scope_note.empty()) j["note"] = scope_note;
    j["files_analyzed"] = files.size();
    j["files_with_hazards"] = files_with;
    j["fix"] = a.fix;
    if (a.fix) j["output"] = a.output, j["files_changed"] = fixed_files;
    nlohmann::json hs = nlohmann::json::array();
    for (const Diagnostic& d : diags) {
      nlohmann::json h = to_json(d);
      h["fixed"] = d.severity == Severity::Note;
      hs.push_back(std::move(h));
    }
    j["hazards"] = hs;
    nlohmann::json codes = nlohmann::json::object();
    for (const auto& c : analysis::hazard_codes())
      if (by_code.count(c.code)) codes[std::string(c.id)] = {{"title", c.title}, {"count", by_code[c.code]}};
    j["summary"] = {
        {"total", diags.size()}, {"left", left}, {"fixed", fixed}, {"no_warp_operation", harmless}, {"by_code", codes}};
    j["wave64_fix"] = {{"components", plan.stats.components},
                       {"components_fixed", plan.stats.fixed_components},
                       {"hazards_in_components", plan.stats.sites},
                       {"hazards_fixable", plan.stats.fixed_sites},
                       {"components_logical", plan.stats.logical_components},
                       {"hazards_logical", plan.stats.logical_sites},
                       {"edits", plan.stats.edits},
                       {"blocked", plan.blocked}};
    nlohmann::json ps = nlohmann::json::array();
    for (const Diagnostic& d : problems) ps.push_back(d.format());
    j["input_problems"] = ps;
    std::cout << j.dump(2) << "\n";
  } else {
    for (const Diagnostic& d : problems) std::cerr << d.format() << "\n";
    if (!a.quiet)
      for (const Diagnostic& d : diags) std::cout << d.format() << "\n";
    if (!scope_note.empty()) std::cout << "note: " << scope_note << "\n";
    std::cout << fmt::format(
        "ferry analyze: {} hazard{} ({} fixed, {} in code without warp operations) in {} of {} "
        "file{} for {} (wave{}, LDS {} bytes/block, {} threads/block)\n",
        left + fixed + harmless, left + fixed + harmless == 1 ? "" : "s", fixed, harmless, files_with, files.size(),
        files.size() == 1 ? "" : "s", profile->name, profile->wave_size, profile->lds_static_bytes,
        profile->max_threads_per_block);
    for (const auto& c : analysis::hazard_codes()) {
      const auto it = by_code.find(c.code);
      if (it != by_code.end()) std::cout << fmt::format("  {}  {:>4}  {}\n", c.id, it->second, c.title);
    }
    if (a.fix) std::cout << "fixed copies written to " << a.output << "\n";
  }
  if (!a.quiet && !a.json)
    for (const std::string& b : plan.blocked) std::cout << "  left as written: " << b << "\n";
  return left > 0 ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> setup_analyze(CLI::App& sub) {
  auto a = std::make_shared<AnalyzeArgs>();
  sub.add_option("path", a->path, "CUDA file or project folder (never modified)")->required();
  sub.add_option("--target", a->target, "hardware profile (see 'ferry targets'): gfx906, gfx90a, sm_90, ...")
      ->capture_default_str();
  sub.add_flag("--fix", a->fix,
               "rewrite the 32-lane assumptions (FRY2201-FRY2209) of every group of code the fixer fully "
               "understands into warp-size-generic CUDA, writing to -o OUT (docs/diagnostics.md)");
  sub.add_option("-o,--output", a->output, "with --fix: output file (for a file) or folder (for a tree)");
  sub.add_flag("--json", a->json, "print a JSON report instead of the text");
  sub.add_flag("-q,--quiet", a->quiet, "print the summary only");
  sub.add_option("--max-file-size", a->max_mib, "largest source file parsed, in MiB")->capture_default_str();
  return [a] { return run_analyze(*a); };
}

}  // namespace ferry::cli
