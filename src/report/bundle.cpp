#include "report/bundle.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
#include <string>

#include "migrate/rounds.h"
#include "project/install_layout.h"
#include "project/json_file.h"
#include "project/project.h"
#include "report/html.h"
#include "report/sarif.h"

namespace fs = std::filesystem;

namespace ferry::report {

namespace {

void recompute_totals(nlohmann::json& m) {
  std::map<std::string, std::size_t> converted, unconverted;
  for (const auto& f : m["files"]) {
    if (f.contains("converted"))
      for (const auto& [k, v] : f["converted"].items()) converted[k] += v.get<std::size_t>();
    if (f.contains("unconverted"))
      for (const auto& [k, v] : f["unconverted"].items()) unconverted[k] += v.get<std::size_t>();
  }
  m["totals"]["converted"] = converted;
  m["totals"]["unconverted"] = unconverted;
  std::map<std::string, std::size_t> worklist;
  for (const auto& f : m["files"])
    if (f.contains("worklist"))
      for (const auto& w : f["worklist"]) ++worklist[w.value("list", "")];
  if (!worklist.empty()) m["totals"]["worklist"] = worklist;
  else m["totals"].erase("worklist");
}

// A migration report rebuilt from the manifest: actions, kinds and diagnostics, no statistics.
nlohmann::json migration_from_manifest(const nlohmann::json& manifest) {
  nlohmann::json files = nlohmann::json::array(), diags = nlohmann::json::array();
  std::map<std::string, std::size_t> codes;
  if (manifest.contains("files") && manifest["files"].is_object())
    for (const auto& [rel, e] : manifest["files"].items()) {
      const nlohmann::json d = e.value("diagnostics", nlohmann::json::array());
      files.push_back({{"path", rel},
                       {"kind", e.value("kind", "other")},
                       {"action", e.value("action", "")},
                       {"lines", 0},
                       {"bytes", 0},
                       {"edits", 0},
                       {"converted", nlohmann::json::object()},
                       {"unconverted", nlohmann::json::object()},
                       {"diagnostics", d.size()}});
      for (const auto& dj : d) {
        nlohmann::json full = dj;
        full["file"] = rel;
        ++codes[full.value("code", "")];
        diags.push_back(std::move(full));
      }
    }
  return {{"tool", "ferry"},
          {"command", "migrate"},
          {"target", manifest.value("target", "")},
          {"input", manifest.value("input", "")},
          {"output", ""},
          {"seconds", 0},
          {"bytes_in", 0},
          {"files", files},
          {"totals",
           {{"files", files.size()},
            {"converted", nlohmann::json::object()},
            {"unconverted", nlohmann::json::object()},
            {"diagnostics_by_code", codes},
            {"diagnostics", diags.size()}}},
          {"diagnostics", diags},
          {"rebuilt_from_manifest", true}};
}

}  // namespace

void record_migration(const fs::path& out, nlohmann::json migration) {
  if (const nlohmann::json prev = project::read_json_or_null(out / kMigrationReportFile);
      prev.is_object() && prev.contains("files") && prev["files"].is_array() && migration.contains("files")) {
    std::map<std::string, const nlohmann::json*> by_path;
    for (const auto& f : prev["files"]) by_path[f.value("path", "")] = &f;
    for (auto& f : migration["files"]) {
      if (f.value("action", "") != "unchanged" && f.value("action", "") != "kept") continue;
      const auto it = by_path.find(f.value("path", ""));
      if (it == by_path.end()) continue;
      for (const char* key : {"lines", "bytes", "edits", "converted", "unconverted", "worklist"})
        if (it->second->contains(key)) f[key] = (*it->second)[key];
    }
    recompute_totals(migration);
  }  // the previous report goes before the new one is dumped
  // Dumped straight into the file (the bytes of dump(1)): a tree's report as one string would sit
  // beside its JSON at the run's end.
  project::write_atomically(out / kMigrationReportFile,
                            [&](std::ostream& o) { o << std::setw(1) << migration << '\n'; });
}

void record_verify(const fs::path& out, nlohmann::json verify) {
  nlohmann::json& s = verify["summary"];
  const double compiles = s.value("compiles", 0.0);
  s["total"] = s.value("compiles", 0);
  s["pass_rate"] = compiles > 0 ? s.value("passed", 0.0) / compiles : 0.0;
  project::write_atomically(out / kVerifyResultFile, verify.dump(1) + "\n");
}

nlohmann::json merge_verify(const nlohmann::json& previous, const nlohmann::json& partial) {
  if (!previous.is_object() || !previous.contains("units")) return partial;
  std::set<std::string> replaced;
  for (const auto& u : partial.value("units", nlohmann::json::array())) replaced.insert(u.value("file", ""));
  nlohmann::json merged = partial;
  nlohmann::json units = nlohmann::json::array();
  for (const auto& u : previous["units"])
    if (!replaced.count(u.value("file", ""))) units.push_back(u);
  for (const auto& u : partial.value("units", nlohmann::json::array())) units.push_back(u);
  std::stable_sort(units.begin(), units.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return std::pair(a.value("file", ""), a.value("arch", "")) < std::pair(b.value("file", ""), b.value("arch", ""));
  });
  nlohmann::json originals = previous.value("original_checks", nlohmann::json::object());
  for (const auto& f : replaced) originals.erase(f);
  for (const auto& [f, c] : partial.value("original_checks", nlohmann::json::object()).items()) originals[f] = c;
  std::map<std::string, std::size_t> by_class;
  std::set<std::string> files;
  std::size_t passed = 0;
  int exit = 0;
  for (const auto& u : units) {
    files.insert(u.value("file", ""));
    if (u.value("status", "") == "pass") {
      ++passed;
      continue;
    }
    const std::string cls = u.value("class", "unknown");
    ++by_class[cls];
    if (cls == "migration-defect") exit = 1;
  }
  nlohmann::json s = partial.value("summary", nlohmann::json::object());
  s["translation_units"] = files.size();
  s["compiles"] = units.size();
  s["passed"] = passed;
  s["failed"] = units.size() - passed;
  s["by_class"] = by_class;
  s["exit_code"] = exit;
  s["merged_from_partial_runs"] = true;
  merged["units"] = std::move(units);
  merged["original_checks"] = std::move(originals);
  merged["summary"] = std::move(s);
  return merged;
}

nlohmann::json collect_report(const fs::path& out) {
  const nlohmann::json manifest = project::read_json_or_null(out / ".ferry" / "manifest.json");
  if (!manifest.is_object())
    throw std::invalid_argument(out.string() +
                                ": no readable .ferry/manifest.json: not a tree written by ferry migrate");
  nlohmann::json migration = project::read_json_or_null(out / kMigrationReportFile);
  if (!migration.is_object()) migration = migration_from_manifest(manifest);
  nlohmann::json verify = project::read_json_or_null(out / kVerifyResultFile);
  if (!verify.is_object()) verify = nullptr;
  nlohmann::json opcheck = project::read_json_or_null(out / kOpcheckResultFile);
  if (!opcheck.is_object()) opcheck = nullptr;
  return {{"tool", "ferry"},
          {"command", "report"},
          {"version", 1},
          {"ferry_version", FERRY_VERSION},
          {"output", fs::absolute(out).lexically_normal().string()},
          {"input", manifest.value("input", migration.value("input", ""))},
          {"target", manifest.value("target", migration.value("target", ""))},
          {"migration", std::move(migration)},
          {"rounds", migrate::rounds::load_history(out)},
          {"verify", std::move(verify)},
          {"opcheck", std::move(opcheck)}};
}

std::string render_report(const fs::path& out, std::string_view format) {
  if (format != "json" && format != "sarif" && format != "html")
    throw std::invalid_argument("unknown report format '" + std::string(format) + "': json, sarif or html");
  const nlohmann::json report = collect_report(out);
  if (format == "json") return report.dump(2) + "\n";
  if (format == "sarif") {
    // Rule titles and anchors from the documentation of the Ferry that built this binary.
    // Installed: PREFIX/share/doc/ferry/diagnostics.md; from a build: the checkout's docs/.
    fs::path docs = project::installed_path("share/doc/ferry/diagnostics.md");
    if (docs.empty()) docs = fs::path(FERRY_SOURCE_DIR) / "docs" / "diagnostics.md";
    std::map<std::string, RuleDoc> rule_docs;
    std::error_code ec;
    if (fs::exists(docs, ec)) rule_docs = parse_diagnostic_docs(project::read_file(docs));
    return to_sarif(report, rule_docs, "file://" + uri_encode_path(docs.string())).dump(2) + "\n";
  }
  const fs::path input = report.value("input", "");
  auto reader = [](fs::path root) -> SourceReader {
    return [root = std::move(root)](const std::string& rel) -> std::optional<std::string> {
      std::error_code ec;
      const fs::path p = root / rel;
      if (root.empty() || !fs::is_regular_file(p, ec)) return std::nullopt;
      try {
        return project::read_file(p);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
  };
  HtmlSources sources;
  sources.original = reader(input);
  sources.output = reader(out);
  sources.linemaps = project::read_json_or_null(out / ".ferry" / "linemaps.json");
  return to_html(report, sources);
}

}  // namespace ferry::report
