// The JSON inventory (schema: docs/scan.md) and the text summary `ferry scan` prints.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/diagnostic_json.h"
#include "scan/scan.h"

namespace ferry::scan {
namespace {

// The per-file counts summed over the tree (the JSON totals and the text summary).
struct Totals {
  std::size_t parsed = 0, lines = 0, kernels = 0, launches = 0, warp = 0, asm_ = 0;
};

Totals totals(const Inventory& inv) {
  Totals t;
  for (const FileInventory& f : inv.files) {
    t.parsed += f.parsed;
    t.lines += f.lines;
    t.kernels += f.kernels;
    t.launches += f.launches;
    t.warp += f.warp_intrinsics;
    t.asm_ += f.inline_asm;
  }
  return t;
}

}  // namespace

namespace {

// PyTorch -> MindSpore coverage (docs/scan.md, "Framework coverage").
nlohmann::json framework_to_json(const FrameworkCoverage& c) {
  using nlohmann::json;
  const double n = static_cast<double>(c.uses);
  json unmapped = json::array();
  std::vector<std::pair<std::string, std::size_t>> names(c.unmapped_names.begin(), c.unmapped_names.end());
  std::stable_sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [name, k] : names) unmapped.push_back({{"name", name}, {"uses", k}});
  json uses = json::array();
  for (const FrameworkUse& u : c.list) {
    json x{{"file", u.file}, {"line", u.line}, {"col", u.col},
           {"name", u.name}, {"kind", u.kind}, {"status", u.status}};
    if (!u.mindspore.empty()) x["mindspore"] = u.mindspore;
    uses.push_back(std::move(x));
  }
  return json{{"from", c.from},
              {"to", c.to},
              {"files", c.files},
              {"uses", c.uses},
              {"mapped", c.same},
              {"mapped_with_differences", c.diff},
              {"unmapped", c.unmapped},
              {"automatic_share", c.uses ? static_cast<double>(c.same + c.diff) / n : 0.0},
              {"effort", {{"hours", c.effort.hours}, {"level", c.effort.level}}},
              {"unmapped_apis", unmapped},
              {"api_uses", uses}};
}

}  // namespace

nlohmann::json inventory_to_json(const Inventory& inv) {
  using nlohmann::json;
  json j;
  j["tool"] = "ferry";
  j["command"] = "scan";
  j["schema_version"] = 1;
  j["root"] = inv.root;
  j["single_file"] = inv.single_file;
  j["targets"] = inv.targets;
  const auto [parsed, lines, kernels, launches, warp, asm_] = totals(inv);
  json files = json::array();
  for (const FileInventory& f : inv.files) {
    json effort = json::object();
    for (const auto& [t, e] : f.effort) effort[t] = {{"hours", e.hours}, {"level", e.level}};
    files.push_back({{"path", f.rel},
                     {"kind", f.kind},
                     {"size", f.size},
                     {"lines", f.lines},
                     {"parsed", f.parsed},
                     {"uses", f.uses},
                     {"kernels", f.kernels},
                     {"launches", f.launches},
                     {"warp_intrinsics", f.warp_intrinsics},
                     {"inline_asm", f.inline_asm},
                     {"status", f.status_counts},
                     {"migrated", f.migrated},
                     {"left", f.left},
                     {"automatic", f.automatic},
                     {"effort", effort}});
  }
  std::map<std::string, std::map<std::string, std::size_t>> status;
  for (const FileInventory& f : inv.files)
    for (const auto& [t, m] : f.status_counts)
      for (const auto& [s, n] : m) status[t][s] += n;
  j["summary"] = {{"files", inv.files.size()}, {"parsed_files", parsed},
                  {"bytes", inv.bytes},        {"lines", lines},
                  {"uses", inv.uses.size()},   {"kernels", kernels},
                  {"launches", launches},      {"warp_intrinsics", warp},
                  {"inline_asm", asm_},        {"problems", inv.problems.size()},
                  {"seconds", inv.seconds}};
  j["kinds"] = inv.kind_counts;
  json builds = json::array();
  for (const BuildSystem& b : inv.build_systems)
    builds.push_back({{"id", b.id}, {"detail", b.detail}, {"file", b.file}, {"line", b.line}, {"col", b.col}});
  j["build_systems"] = builds;
  json libs = json::array();
  for (const LibraryUse& l : inv.libraries)
    libs.push_back({{"id", l.id},
                    {"name", l.name},
                    {"category", l.category},
                    {"uses", l.uses},
                    {"files", l.files},
                    {"first", l.first}});
  j["libraries"] = libs;
  j["status"] = status;
  json effort = json::object();
  for (const auto& [t, e] : inv.effort) effort[t] = {{"hours", e.hours}, {"level", e.level}};
  j["effort"] = effort;
  json migration = json::object();
  for (const std::string& t : inv.targets) {
    const std::size_t judged = inv.judged.count(t) ? inv.judged.at(t) : 0;
    const std::size_t automatic = inv.automatic.count(t) ? inv.automatic.at(t) : 0;
    migration[t] = {{"uses", judged},
                    {"automatic", automatic},
                    {"share", judged ? static_cast<double>(automatic) / judged : 0.0},
                    {"left", inv.left.count(t) ? json(inv.left.at(t)) : json::object()}};
  }
  j["migration"] = migration;
  j["files"] = files;
  json uses = json::array();
  for (const ApiUse& u : inv.uses) {
    json x{{"file", u.file},     {"line", u.line}, {"col", u.col},         {"name", u.name},
           {"family", u.family}, {"kind", u.kind}, {"library", u.library}, {"status", u.status}};
    if (!u.note.empty()) x["note"] = u.note;
    uses.push_back(std::move(x));
  }
  j["uses"] = uses;
  j["problems"] = to_json(inv.problems);
  j["framework"] = framework_to_json(inv.framework);
  return j;
}

namespace {
constexpr std::size_t kHeaviest = 10;  // files in the default summary
}  // namespace

std::string inventory_summary(const Inventory& inv, bool list_uses, bool all_files) {
  std::ostringstream o;
  if (list_uses) {
    for (const ApiUse& u : inv.uses) {
      o << u.file << ":" << u.line << ":" << u.col << ": " << u.kind << " " << u.name << " [" << u.family;
      for (const auto& [t, s] : u.status) o << ", " << t << ": " << s;
      o << "]\n";
    }
    o << "\n";
  }
  const auto [parsed, lines, kernels, launches, warp, asm_] = totals(inv);
  o << fmt::format(
      "ferry scan: {} — {} files ({} parsed), {} lines, {:.1f} "
      "KiB in {:.3f} s\n",
      inv.root, inv.files.size(), parsed, lines, static_cast<double>(inv.bytes) / 1024.0, inv.seconds);
  o << "\nFile kinds:\n";
  for (const auto& [k, n] : inv.kind_counts) o << fmt::format("  {:<14}{:>6}\n", k, n);
  if (all_files) {
    o << "\nBuild systems:\n";
    if (inv.build_systems.empty()) o << "  (none with GPU settings found)\n";
    for (const BuildSystem& b : inv.build_systems)
      o << fmt::format("  {:<11}{:<44}{}:{}:{}\n", b.id, b.detail, b.file, b.line, b.col);
  } else {
    // One line per build system: how many files, and what made them GPU builds.
    std::map<std::string, std::set<std::string>> files_of;
    std::map<std::string, std::map<std::string, std::size_t>> details_of;
    for (const BuildSystem& b : inv.build_systems) {
      files_of[b.id].insert(b.file);
      ++details_of[b.id][b.detail];
    }
    std::size_t build_files = 0;
    for (const auto& [id, f] : files_of) build_files += f.size();
    o << fmt::format("\nBuild systems: {} file{} with GPU settings{}\n", build_files, build_files == 1 ? "" : "s",
                     build_files ? " (--files lists each)" : "");
    if (inv.build_systems.empty()) o << "  (none with GPU settings found)\n";
    for (const auto& [id, f] : files_of) {
      std::vector<std::pair<std::string, std::size_t>> d(details_of[id].begin(), details_of[id].end());
      std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      std::string what;
      for (const auto& [detail, n] : d) what += fmt::format("{}{} {}", what.empty() ? "" : ", ", detail, n);
      o << fmt::format("  {:<11}{:>6} file{}  ({})\n", id, f.size(), f.size() == 1 ? " " : "s", what);
    }
  }
  o << "\nGPU libraries and frameworks:\n";
  if (inv.libraries.empty()) o << "  (none found)\n";
  for (const LibraryUse& l : inv.libraries)
    o << fmt::format("  {:<48}{:>6} uses in {:>3} files  (first: {})\n", l.name, l.uses, l.files.size(), l.first);
  o << fmt::format(
      "\nGPU API uses: {}  (kernels {}, launches {}, warp "
      "intrinsics {}, inline asm {})\n",
      inv.uses.size(), kernels, launches, warp, asm_);
  std::map<std::string, std::map<std::string, std::size_t>> status;
  for (const FileInventory& f : inv.files)
    for (const auto& [t, m] : f.status_counts)
      for (const auto& [s, n] : m) status[t][s] += n;
  o << fmt::format("  {:<10}{:>10}{:>10}{:>12}{:>10}{:>10}\n", "target", "supported", "changed", "deprecated",
                   "unsupp.", "unknown");
  for (const std::string& t : inv.targets) {
    auto& m = status[t];
    o << fmt::format("  {:<10}{:>10}{:>10}{:>12}{:>10}{:>10}\n", t, m["supported"], m["changed"], m["deprecated"],
                     m["unsupported"], m["unknown"]);
  }
  bool any_migrated = false;
  for (const FileInventory& f : inv.files) any_migrated = any_migrated || f.migrated;
  if (any_migrated) {
    o << "\nWhat the migration leaves (source files with GPU uses, migrated in memory):\n";
    for (const std::string& t : inv.targets) {
      const std::size_t judged = inv.judged.count(t) ? inv.judged.at(t) : 0;
      const std::size_t automatic = inv.automatic.count(t) ? inv.automatic.at(t) : 0;
      std::vector<std::pair<std::string, std::size_t>> codes;
      if (inv.left.count(t)) codes.assign(inv.left.at(t).begin(), inv.left.at(t).end());
      std::stable_sort(codes.begin(), codes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      std::size_t total = 0;
      for (const auto& [c, n] : codes) total += n;
      std::string top;
      for (std::size_t i = 0; i < codes.size() && i < 6; ++i)
        top += fmt::format("{}{} x{}", i ? ", " : "", codes[i].first, codes[i].second);
      if (codes.size() > 6) top += ", ...";
      o << fmt::format(
          "  {:<10}{} of {} uses ({:.1f}%) migrated automatically; {} diagnostic{} "
          "left{}{}\n",
          t, automatic, judged, judged ? 100.0 * static_cast<double>(automatic) / static_cast<double>(judged) : 0.0,
          total, total == 1 ? "" : "s", top.empty() ? "" : ": ", top);
    }
  }
  if (!inv.targets.empty()) {
    const std::string& t = inv.targets.front();
    std::vector<const FileInventory*> gpu;
    for (const FileInventory& f : inv.files)
      if (f.uses > 0) gpu.push_back(&f);
    auto hours = [&](const FileInventory* f) {
      const auto it = f->effort.find(t);
      return it == f->effort.end() ? 0.0 : it->second.hours;
    };
    if (all_files) {
      o << fmt::format("\nPer file (effort for {}):\n", t);
    } else {
      std::stable_sort(gpu.begin(), gpu.end(), [&](const auto* a, const auto* b) { return hours(a) > hours(b); });
      if (gpu.size() > kHeaviest) gpu.resize(kHeaviest);
      std::size_t with_uses = 0;
      for (const FileInventory& f : inv.files) with_uses += f.uses > 0;
      o << fmt::format("\nHeaviest files (effort for {}; {} of {} with GPU uses{}):\n", t, gpu.size(), with_uses,
                       with_uses > gpu.size() ? ", --files lists all" : "");
    }
    o << fmt::format("  {:<40} {:<12}{:>6}{:>6}{:>6}{:>5}{:>8}{:>8}  {}\n", "file", "kind", "uses", "kern", "warp",
                     "asm", "unsupp", "hours", "effort");
    for (const FileInventory* fp : gpu) {
      const FileInventory& f = *fp;
      const auto sc = f.status_counts.find(t);
      std::size_t unsup = 0;
      if (sc != f.status_counts.end())
        if (auto it = sc->second.find("unsupported"); it != sc->second.end()) unsup = it->second;
      const Effort e = f.effort.count(t) ? f.effort.at(t) : Effort{};
      o << fmt::format("  {:<40} {:<12}{:>6}{:>6}{:>6}{:>5}{:>8}{:>8.1f}  {}\n", f.rel, f.kind, f.uses, f.kernels,
                       f.warp_intrinsics, f.inline_asm, unsup, e.hours, e.level);
    }
  }
  if (const FrameworkCoverage& c = inv.framework; c.uses > 0) {
    const double n = static_cast<double>(c.uses);
    auto pct = [&](std::size_t k) { return 100.0 * static_cast<double>(k) / n; };
    // which frameworks the uses are of: TensorFlow's names start with "tf." (canonical spelling)
    std::size_t tf_uses = 0;
    for (const FrameworkUse& u : c.list) tf_uses += u.name.rfind("tf.", 0) == 0;
    const char* frameworks = tf_uses == 0 ? "PyTorch" : tf_uses == c.uses ? "TensorFlow" : "PyTorch and TensorFlow";
    o << fmt::format("\n{} -> MindSpore coverage: {} API uses in {} Python file{}\n", frameworks, c.uses, c.files,
                     c.files == 1 ? "" : "s");
    o << fmt::format("  mapped {} ({:.1f}%), mapped with differences {} ({:.1f}%), unmapped {} ({:.1f}%)\n", c.same,
                     pct(c.same), c.diff, pct(c.diff), c.unmapped, pct(c.unmapped));
    o << fmt::format("  converted automatically: {:.1f}%; effort left: {} ({:.1f} h)\n", pct(c.same + c.diff),
                     c.effort.level, c.effort.hours);
    std::vector<std::pair<std::string, std::size_t>> names(c.unmapped_names.begin(), c.unmapped_names.end());
    std::stable_sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string top;
    for (std::size_t i = 0; i < names.size() && i < 8; ++i)
      top += fmt::format("{}{} x{}", i ? ", " : "", names[i].first, names[i].second);
    if (names.size() > 8) top += fmt::format(", ... ({} names)", names.size());
    if (!top.empty()) o << "  unmapped: " << top << "\n";
  }
  o << "\nMigration effort:";
  for (const std::string& t : inv.targets) {
    const Effort e = inv.effort.count(t) ? inv.effort.at(t) : Effort{};
    o << fmt::format("  {}: {} ({:.1f} h)", t, e.level, e.hours);
  }
  o << "\n";
  if (!inv.problems.empty()) o << fmt::format("Input problems: {} (listed above)\n", inv.problems.size());
  return o.str();
}

}  // namespace ferry::scan
