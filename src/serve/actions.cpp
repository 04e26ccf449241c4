#include "serve/actions.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "migrate/migrate_tree.h"
#include "project/project.h"
#include "report/bundle.h"
#include "report/json_report.h"
#include "targets/target.h"
#include "verify/verify.h"

namespace fs = std::filesystem;

namespace ferry::serve {

nlohmann::json run_verify_job(Workspace& ws, const VerifySettings& s, const std::optional<std::string>& only,
                              JobContext& ctx) {
  verify::VerifyOptions o;
  o.tree = ws.out_path();
  o.mode = verify::Mode::Migrated;
  o.profiles = s.profiles;
  o.jobs = std::max(1u, s.jobs);
  o.timeout = s.timeout;
  o.hipcc = s.hipcc;
  o.nvcc = s.nvcc;
  o.check_original = s.check_original;
  o.cache_dir = s.cache_dir;
  if (only) o.only = {normalise_relative(*only)};
  for (const analysis::Profile* p : o.profiles) {
    const bool nv = p->toolchain == "nvcc";
    if ((nv ? o.nvcc : o.hipcc).empty())
      throw std::runtime_error(std::string(nv ? "nvcc" : "hipcc") + " not found: install it (make deps) or pass --" +
                               (nv ? "nvcc" : "hipcc") + " to ferry serve");
  }
  if (o.check_original && o.nvcc.empty() && o.hipcc.empty()) o.check_original = false;

  // The text each unit is compiled from, so a later view can tell the result went stale.
  std::map<std::string, std::string> hashes;
  const nlohmann::json manifest = ws.manifest();
  for (const auto& [rel, e] : manifest["files"].items()) {
    if (only && rel != o.only.front()) continue;
    try {
      hashes[rel] = migrate::content_hash(ws.read(rel));
    } catch (const std::exception&) {
    }
  }
  o.on_start = [&ctx](std::size_t compiles, std::uintmax_t) {
    ctx.set_total(compiles);
    ctx.note("compiling");
  };
  o.on_file_done = [&ctx](std::uintmax_t) { ctx.advance(); };
  const verify::SubprocessRunner runner(&ctx.cancel_flag());
  const verify::VerifyResult r = verify::run_verify(o, runner);
  if (ctx.cancelled()) return {{"cancelled", true}};

  nlohmann::json j = verify::to_json(r);
  for (auto& u : j["units"])
    if (const auto h = hashes.find(u.value("file", "")); h != hashes.end()) u["source_hash"] = h->second;
  const fs::path recorded = ws.out_path() / report::kVerifyResultFile;
  nlohmann::json previous = nullptr;
  std::error_code ec;
  if (only && fs::exists(recorded, ec)) {
    previous = nlohmann::json::parse(project::read_file(recorded), nullptr, false);
    if (previous.is_discarded()) previous = nullptr;
  }
  report::record_verify(ws.out_path(), only ? report::merge_verify(previous, j) : j);

  nlohmann::json units = nlohmann::json::array();
  for (const auto& u : j["units"]) {
    nlohmann::json first = nullptr;
    if (u.contains("errors") && !u["errors"].empty()) {
      const auto& e = u["errors"].front();
      const auto& orig = e.contains("original") ? e["original"] : nlohmann::json(nullptr);
      first = {{"message", e.value("message", "")},
               {"file", orig.is_object() ? orig.value("file", "") : e.value("file", "")},
               {"line", orig.is_object() ? orig.value("output_line", 0u) : e.value("line", 0u)}};
    }
    units.push_back({{"file", u.value("file", "")},
                     {"arch", u.value("arch", "")},
                     {"status", u.value("status", "")},
                     {"class", u.value("class", "")},
                     {"errors", u.contains("errors") ? u["errors"].size() : 0},
                     {"first_error", first}});
  }
  return {{"only", only ? nlohmann::json(o.only.front()) : nlohmann::json(nullptr)},
          {"summary", j["summary"]},
          {"units", units},
          {"notes", j["notes"]}};
}

nlohmann::json run_round_job(Workspace& ws, unsigned jobs, JobContext& ctx) {
  std::unique_lock lock(ws.write_lock());  // waits for a save in flight; refuses new ones
  const nlohmann::json m = ws.manifest();
  const std::string input = m.value("input", "");
  const std::string target_name = m.value("target", "");
  std::error_code ec;
  if (input.empty() || !fs::is_directory(input, ec))
    throw std::runtime_error("the input tree " + (input.empty() ? std::string("(none recorded)") : input) +
                             " is gone: a round needs it");
  nlohmann::json notes = nlohmann::json::array();
  targets::Options topts;
  migrate::TreeOptions tree;
  tree.input = input;
  tree.output = ws.out_path();
  tree.jobs = std::max(1u, jobs);
  if (m.contains("options") && m["options"].is_object()) {
    const auto& o = m["options"];
    if (o.contains("target_options") && o["target_options"].is_object()) {
      for (const auto& [name, value] : o["target_options"].items())
        if (value.is_string()) topts.values[name] = value.get<std::string>();
    } else if (const targets::TargetInfo* info = targets::find_target(target_name)) {
      // A manifest of Ferry 0.x before targets owned their options: the same choices under other keys.
      const auto declared = [&](std::string_view name) { return targets::find_option(*info, name) != nullptr; };
      for (const char* key : {"launch", "blas", "sparse", "hip_version", "cuda_version"}) {
        std::string name = key;
        std::replace(name.begin(), name.end(), '_', '-');
        if (declared(name) && o.contains(key) && o[key].is_string() && !o[key].get<std::string>().empty())
          topts.values[name] = o[key].get<std::string>();
      }
      if (declared("hip-data-types") && o.value("hip_data_types", false)) topts.values["hip-data-types"] = "1";
      if (declared("no-wave64-fix") && !o.value("wave64_fix", true)) topts.values["no-wave64-fix"] = "1";
    }
    const fs::path cwd = o.value("cwd", "");
    for (const auto& r : o.value("rules", nlohmann::json::array())) {
      fs::path p = r.get<std::string>();
      if (p.is_relative() && !cwd.empty() && cwd != fs::current_path()) {
        p = cwd / p;
        notes.push_back("rule file " + r.get<std::string>() + " read as " + p.string() +
                        " (relative to where migrate ran): its files are regenerated and merged once");
      }
      topts.user_rule_files.push_back(p.string());
    }
    tree.arch = o.value("arch", tree.arch);
    tree.max_file_size = o.value("max_file_size", tree.max_file_size);
  } else {
    notes.push_back(
        "the manifest predates recorded options: default options are used (--launch chevron, "
        "--blas hipblas, --arch gfx906); if the tree was migrated with others, files are "
        "regenerated and hand edits merged three-way");
  }
  const auto target = targets::make_target(target_name, topts);
  tree.on_start = [&ctx](std::size_t files, std::uintmax_t) {
    ctx.set_total(files);
    ctx.note("migrating");
  };
  tree.on_file_done = [&ctx](std::uintmax_t) { ctx.advance(); };
  const migrate::TreeResult r = migrate::migrate_tree(*target, topts, tree);
  report::record_migration(ws.out_path(), report::migration_to_json(r, target_name, input, ws.out_path().string()));

  // The manifest names what each file went through ("kept" for an edited output whose input did
  // not change, which the tree result counts as unchanged).
  std::map<std::string, std::string> actions;
  const nlohmann::json after = ws.manifest();
  for (const auto& [rel, e] : after["files"].items()) actions[rel] = e.value("action", "");
  nlohmann::json files = nlohmann::json::array();
  std::map<std::string, std::size_t> by_action;
  for (const migrate::FileReport& f : r.files) {
    const auto a = actions.find(f.rel);
    const std::string action = a != actions.end() && !a->second.empty() ? a->second : f.action;
    ++by_action[action];
    if (action != "unchanged") files.push_back({{"path", f.rel}, {"action", action}, {"diagnostics", f.diagnostics}});
  }
  std::size_t errors = 0;
  nlohmann::json round_diags = nlohmann::json::array();  // the rounds' own (FRY92xx)
  for (const Diagnostic& d : r.diagnostics) {
    errors += d.severity == Severity::Error;
    const auto id = static_cast<unsigned>(d.code);
    if (id >= 9201 && id <= 9299)
      round_diags.push_back({{"file", d.file},
                             {"line", d.line},
                             {"code", std::string(to_string(d.code))},
                             {"severity", std::string(to_string(d.severity))},
                             {"message", d.message}});
  }
  const auto& rd = r.round;
  return {{"round",
           {{"round", rd.round},
            {"migrated", rd.migrated},
            {"copied", rd.copied},
            {"unchanged", rd.unchanged},
            {"merged", rd.merged},
            {"conflicted", rd.conflicted},
            {"edited_by_hand", rd.edited_by_hand},
            {"removed", rd.removed},
            {"renamed", rd.renamed},
            {"orphaned", rd.orphaned},
            {"opened", rd.opened},
            {"closed", rd.closed},
            {"seconds", rd.seconds}}},
          {"by_action", by_action},
          {"files", files},
          {"diagnostics", r.diagnostics.size()},
          {"errors", errors},
          {"round_diagnostics", round_diags},
          {"notes", notes}};
}

}  // namespace ferry::serve
