// `ferry status OUT`: the rounds of a migrated tree (OUT/.ferry/rounds.json, docs/rounds.md),
// which outputs are edited by hand now, and the verify pass rate when verify left a result.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "migrate/migrate_tree.h"
#include "migrate/rounds.h"
#include "project/project.h"

namespace fs = std::filesystem;

namespace ferry::cli {
namespace {

struct StatusArgs {
  std::string out;
  bool json = false;
};

// OUT/.ferry/verify.json (written by `ferry verify`): a pass rate from "passed"/"total",
// "summary": {"passed","total"} or "pass_rate"; null when verify has not run.
nlohmann::json verify_result(const fs::path& out) {
  for (const char* name : {"verify.json", "verify_result.json", "verify-result.json"}) {
    const fs::path p = out / ".ferry" / name;
    std::error_code ec;
    if (!fs::exists(p, ec)) continue;
    nlohmann::json j = nlohmann::json::parse(project::read_file(p), nullptr, false);
    if (j.is_discarded()) continue;
    const nlohmann::json& s = j.contains("summary") && j["summary"].is_object() ? j["summary"] : j;
    nlohmann::json r = {{"file", p.string()}};
    if (s.contains("pass_rate") && s["pass_rate"].is_number()) r["pass_rate"] = s["pass_rate"];
    const char* pass_keys[] = {"passed", "pass", "ok"};
    const char* total_keys[] = {"total", "files", "units"};
    for (const char* pk : pass_keys)
      for (const char* tk : total_keys)
        if (!r.contains("pass_rate") && s.contains(pk) && s[pk].is_number() && s.contains(tk) && s[tk].is_number() &&
            s[tk].get<double>() > 0) {
          r["passed"] = s[pk];
          r["total"] = s[tk];
          r["pass_rate"] = s[pk].get<double>() / s[tk].get<double>();
        }
    return r;
  }
  return nullptr;
}

int run_status(const StatusArgs& a) {
  const fs::path out = a.out;
  std::error_code ec;
  if (!fs::exists(out / ".ferry" / "manifest.json", ec))
    throw std::invalid_argument(a.out + ": no .ferry/manifest.json: not a tree written by ferry migrate");
  const nlohmann::json history = migrate::rounds::load_history(out);
  const nlohmann::json manifest = nlohmann::json::parse(project::read_file(out / ".ferry" / "manifest.json"));
  // Files edited by hand now, and unresolved conflicts.
  nlohmann::json edited = nlohmann::json::array(), conflicts = nlohmann::json::array(),
                 missing = nlohmann::json::array();
  if (manifest.contains("files"))
    for (const auto& [rel, e] : manifest["files"].items()) {
      const fs::path p = out / rel;
      if (!fs::exists(p, ec)) {
        missing.push_back(rel);
        continue;
      }
      const bool changed = migrate::rounds::carries_hand_edits(e, migrate::content_hash(project::read_file(p)));
      if (changed) edited.push_back(rel);
      else if (e.value("conflict", false)) conflicts.push_back(rel);
    }
  const nlohmann::json verify = verify_result(out);
  const bool interrupted = fs::exists(out / ".ferry" / "journal.jsonl", ec);
  if (a.json) {
    nlohmann::json j = {{"tool", "ferry"},
                        {"command", "status"},
                        {"output", a.out},
                        {"rounds", history},
                        {"edited_by_hand", edited},
                        {"unresolved_conflicts", conflicts},
                        {"missing_outputs", missing},
                        {"verify", verify},
                        {"interrupted_round", interrupted},
                        {"target", manifest.value("target", "")},
                        {"input", manifest.value("input", "")}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{}: {} → {} ({} files, {} rounds)\n", a.out, manifest.value("input", "?"),
                             manifest.value("target", "?"), manifest.contains("files") ? manifest["files"].size() : 0,
                             history.size());
    std::cout << fmt::format("{:>5} {:<20} {:>8} {:>7} {:>9} {:>6} {:>9} {:>6} {:>7} {:>6} {:>6}\n", "round",
                             "time (UTC)", "migrated", "copied", "unchanged", "merged", "conflicts", "edited",
                             "removed", "diag+", "diag-");
    for (const auto& r : history)
      std::cout << fmt::format("{:>5} {:<20} {:>8} {:>7} {:>9} {:>6} {:>9} {:>6} {:>7} {:>6} {:>6}\n",
                               r.value("round", 0), r.value("time", ""), r.value("migrated", 0), r.value("copied", 0),
                               r.value("unchanged", 0), r.value("merged", 0), r.value("conflicted", 0),
                               r.value("edited_by_hand", 0), r.value("removed", 0), r.value("opened", 0),
                               r.value("closed", 0));
    std::cout << fmt::format("edited by hand now: {}\n", edited.size());
    for (const auto& e : edited) std::cout << "  " << e.get<std::string>() << "\n";
    if (!conflicts.empty()) {
      std::cout << fmt::format("unresolved conflicts: {}\n", conflicts.size());
      for (const auto& e : conflicts) std::cout << "  " << e.get<std::string>() << "\n";
    }
    if (!missing.empty()) std::cout << fmt::format("outputs deleted by hand: {}\n", missing.size());
    if (interrupted) std::cout << "the last round was interrupted: run ferry migrate again to complete it\n";
    if (verify.is_null() || !verify.contains("pass_rate")) std::cout << "verify: not run\n";
    else
      std::cout << fmt::format("verify: {:.1f}% passed ({})\n", 100.0 * verify["pass_rate"].get<double>(),
                               verify["file"].get<std::string>());
  }
  return conflicts.empty() ? kExitOk : kExitFindings;
}

}  // namespace

std::function<int()> setup_status(CLI::App& sub) {
  auto a = std::make_shared<StatusArgs>();
  sub.add_option("output", a->out, "a folder written by ferry migrate")->required();
  sub.add_flag("--json", a->json, "print JSON");
  return [a] { return run_status(*a); };
}

}  // namespace ferry::cli
