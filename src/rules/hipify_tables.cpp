#include "rules/hipify_tables.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/text.h"

namespace fs = std::filesystem;

namespace ferry::rules {
namespace {

// The cells of a markdown table row `|a|b|c|`, trimmed.
std::vector<std::string_view> cells(std::string_view line) {
  line = trim(line);
  if (line.starts_with('|')) line.remove_prefix(1);
  if (line.ends_with('|')) line.remove_suffix(1);
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t bar = line.find('|', start);
    out.push_back(trim(line.substr(start, bar == std::string_view::npos ? line.npos : bar - start)));
    if (bar == std::string_view::npos) return out;
    start = bar + 1;
  }
}

std::string_view unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '`' && s.back() == '`') return s.substr(1, s.size() - 2);
  if (s.size() >= 4 && s.starts_with("**") && s.ends_with("**")) return s.substr(2, s.size() - 4);
  return s;
}

}  // namespace

std::vector<HipifyName> read_hipify_tables(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.ends_with(".md") && name.find("_supported_by_") != std::string::npos &&
        name.find("_and_") == std::string::npos)
      files.push_back(e.path());
  }
  if (ec) throw std::runtime_error(dir.string() + ": " + ec.message());
  if (files.empty())
    throw std::runtime_error(dir.string() + ": no HIPIFY tables (*_supported_by_*.md; ROCm/HIPIFY's docs/tables)");
  std::sort(files.begin(), files.end());
  std::vector<HipifyName> out;
  for (const fs::path& path : files) {
    const std::string file = path.filename().string();
    std::string table = file.substr(0, file.find("_supported_by_"));
    for (std::string_view suffix : {"_API_functions", "_API"})
      if (table.ends_with(suffix)) {
        table.resize(table.size() - suffix.size());
        break;
      }
    std::ifstream in(path);
    std::string line, section, column;
    while (std::getline(in, line)) {
      if (line.starts_with("## ")) {
        section = std::string(unquote(trim(std::string_view(line).substr(3))));
        continue;
      }
      if (!line.starts_with('|')) continue;
      const auto c = cells(line);
      if (c.size() < 7) continue;
      if (c[0] == "**CUDA**") {
        column = std::string(unquote(c[5]));
        continue;
      }
      if (column.empty() || !c[0].starts_with('`')) continue;
      const std::string_view target = unquote(c[5]);
      if (target.empty()) continue;
      HipifyName n;
      n.table = table;
      n.column = column;
      n.section = section;
      n.cuda = std::string(unquote(c[0]));
      n.target = std::string(target);
      if (auto v = Version::parse(c[6])) n.added = *v;
      out.push_back(std::move(n));
    }
  }
  return out;
}

std::string_view to_string(Coverage c) {
  switch (c) {
    case Coverage::Same: return "same";
    case Coverage::Better: return "better";
    case Coverage::Declined: return "declined";
    case Coverage::Differs: return "differs";
    case Coverage::Unsupported: return "unsupported";
    case Coverage::Missing: return "missing";
  }
  return "?";
}

std::size_t CoverageCount::total() const {
  std::size_t n = 0;
  for (std::size_t k : by_kind) n += k;
  return n;
}

CoverageReport hipify_coverage(const RuleSet& rules, const std::vector<HipifyName>& names,
                               const std::function<std::string_view(std::string_view)>& column_for) {
  CoverageReport report;
  report.total.table = "TOTAL";
  std::map<std::string, std::size_t> index;  // table -> position in report.tables
  for (const HipifyName& n : names) {
    if (n.column != column_for(n.table)) continue;
    const std::string key = n.table + " (" + n.column + ")";
    auto [it, inserted] = index.try_emplace(key, report.tables.size());
    if (inserted) report.tables.push_back(CoverageCount{key, {}});
    const Rule* r = rules.find_identifier(n.cuda);
    if (!r) r = rules.find_namespace(n.cuda);
    CoverageEntry e{&n, Coverage::Missing, {}};
    if (r) {
      // A call template's head is its name: `hipMemcpyToSymbol(HIP_SYMBOL($0), $1...)`.
      const std::string head(r->to.substr(0, r->to.find('(')));
      const bool cites_hipify = r->note.find("HIPIFY") != std::string::npos;
      e.ferry = r->has_replacement() ? head : "-";
      if (!r->has_replacement()) e.kind = cites_hipify ? Coverage::Declined : Coverage::Unsupported;
      else if (head == n.target) e.kind = Coverage::Same;
      else e.kind = cites_hipify ? Coverage::Better : Coverage::Differs;
    }
    ++report.tables[it->second].by_kind[static_cast<std::size_t>(e.kind)];
    ++report.total.by_kind[static_cast<std::size_t>(e.kind)];
    report.entries.push_back(std::move(e));
  }
  return report;
}

}  // namespace ferry::rules
