#include "report/json_report.h"

#include <map>
#include <sstream>

#include <fmt/format.h>

namespace ferry::report {

nlohmann::json migration_to_json(const migrate::TreeResult& r, std::string_view target, std::string_view input,
                                 std::string_view output) {
  nlohmann::json j;
  j["tool"] = "ferry";
  j["command"] = "migrate";
  j["target"] = target;
  j["input"] = input;
  j["output"] = output;
  j["seconds"] = r.seconds;
  j["bytes_in"] = r.bytes_in;
  std::map<std::string, std::size_t> converted, unconverted, codes, worklist;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : r.files) {
    nlohmann::json fj{{"path", f.rel},
                      {"kind", project::kind_name(f.kind)},
                      {"action", f.action},
                      {"lines", f.stats.lines},
                      {"bytes", f.stats.bytes},
                      {"edits", f.stats.edits},
                      {"converted", f.stats.converted_by_family},
                      {"unconverted", f.stats.unconverted_by_family},
                      {"diagnostics", f.diagnostics}};
    for (const auto& [k, v] : f.stats.converted_by_family) converted[k] += v;
    for (const auto& [k, v] : f.stats.unconverted_by_family) unconverted[k] += v;
    if (!f.stats.worklist.empty()) {
      nlohmann::json wl = nlohmann::json::array();
      for (const auto& w : f.stats.worklist) {
        wl.push_back({{"list", w.list}, {"line", w.line}, {"api", w.api}, {"detail", w.detail}});
        ++worklist[w.list];
      }
      fj["worklist"] = std::move(wl);
    }
    files.push_back(std::move(fj));
  }
  for (const auto& d : r.diagnostics) ++codes[std::string(to_string(d.code))];
  j["files"] = std::move(files);
  j["totals"] = {{"files", r.files.size()},
                 {"converted", converted},
                 {"unconverted", unconverted},
                 {"diagnostics_by_code", codes},
                 {"diagnostics", r.diagnostics.size()}};
  if (!worklist.empty()) j["totals"]["worklist"] = worklist;
  j["diagnostics"] = to_json(r.diagnostics);
  return j;
}

std::string migration_summary(const migrate::TreeResult& r) {
  std::map<std::string, std::size_t> converted, unconverted, codes;
  std::size_t migrated = 0, copied = 0, skipped = 0, lines = 0;
  for (const auto& f : r.files) {
    if (f.action == "migrated") ++migrated;
    else if (f.action == "copied") ++copied;
    else ++skipped;
    lines += f.stats.lines;
    for (const auto& [k, v] : f.stats.converted_by_family) converted[k] += v;
    for (const auto& [k, v] : f.stats.unconverted_by_family) unconverted[k] += v;
  }
  for (const auto& d : r.diagnostics) ++codes[std::string(to_string(d.code))];
  std::ostringstream o;
  o << fmt::format("ferry: {} files migrated, {} copied, {} skipped; {} lines, {:.1f} KiB in {:.3f} s\n", migrated,
                   copied, skipped, lines, r.bytes_in / 1024.0, r.seconds);
  std::size_t total_conv = 0, total_unconv = 0;
  for (const auto& [k, v] : converted) total_conv += v;
  for (const auto& [k, v] : unconverted) total_unconv += v;
  o << fmt::format("  API references converted: {}, left for review: {}\n", total_conv, total_unconv);
  if (!converted.empty() || !unconverted.empty()) {
    o << fmt::format("  {:<16} {:>10} {:>12}\n", "family", "converted", "unconverted");
    std::map<std::string, std::pair<std::size_t, std::size_t>> rows;
    for (const auto& [k, v] : converted) rows[k].first = v;
    for (const auto& [k, v] : unconverted) rows[k].second = v;
    for (const auto& [k, v] : rows) o << fmt::format("  {:<16} {:>10} {:>12}\n", k, v.first, v.second);
  }
  if (!codes.empty()) {
    o << "  diagnostics:";
    for (const auto& [k, v] : codes) o << " " << k << "×" << v;
    o << "\n";
  }
  return o.str();
}

}  // namespace ferry::report
