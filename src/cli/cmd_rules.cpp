#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "rules/hipify_tables.h"
#include "targets/target.h"

namespace ferry::cli {
namespace {

struct RulesArgs {
  std::string to = "hip";
  targets::Options options;
  bool stats = false;
  bool json = false;
  std::string family;
  std::string lookup;
  std::string against_hipify;     // ROCm/HIPIFY docs/tables folder
  std::vector<std::string> list;  // with --against-hipify: print the names of these kinds
};

// Coverage of HIPIFY's API tables (docs/rules.md#coverage-of-hipifys-tables).
int run_against_hipify(const RulesArgs& a, const targets::Target& target) {
  const rules::RuleSet& set = target.rules();
  if (a.to != "hip") throw std::invalid_argument("--against-hipify compares the CUDA -> HIP tables: use --to hip");
  const std::vector<rules::HipifyName> names = rules::read_hipify_tables(a.against_hipify);
  const auto column_for = [&](std::string_view table) -> std::string_view {
    if (table == "CUDNN") return "MIOPEN";  // Ferry maps cuDNN to MIOpen (hipDNN is no ROCm library)
    if (table == "CUBLAS" && target.option("blas") == "rocblas") return "ROC";
    if (table == "CUSPARSE" && target.option("sparse") == "rocsparse") return "ROC";
    return "HIP";
  };
  const rules::CoverageReport rep = rules::hipify_coverage(set, names, column_for);
  static constexpr rules::Coverage kKinds[] = {rules::Coverage::Same,        rules::Coverage::Better,
                                               rules::Coverage::Declined,    rules::Coverage::Differs,
                                               rules::Coverage::Unsupported, rules::Coverage::Missing};
  auto pct = [](const rules::CoverageCount& c) { return c.total() ? 100.0 * c.covered() / c.total() : 100.0; };
  if (a.json) {
    nlohmann::json j = nlohmann::json::object();
    auto row = [&](const rules::CoverageCount& c) {
      nlohmann::json r = {{"total", c.total()}, {"covered", c.covered()}, {"coverage_percent", pct(c)}};
      for (rules::Coverage k : kKinds) r[std::string(rules::to_string(k))] = c.by_kind[static_cast<std::size_t>(k)];
      return r;
    };
    for (const auto& t : rep.tables) j["tables"][t.table] = row(t);
    j["total"] = row(rep.total);
    for (const auto& e : rep.entries)
      if (std::find(a.list.begin(), a.list.end(), rules::to_string(e.kind)) != a.list.end())
        j["names"].push_back({{"table", e.name->table},
                              {"kind", rules::to_string(e.kind)},
                              {"cuda", e.name->cuda},
                              {"hipify", e.name->target},
                              {"ferry", e.ferry}});
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{:<26} {:>6} {:>6} {:>6} {:>8} {:>7} {:>11} {:>7} {:>8}\n", "HIPIFY table (column)",
                             "names", "same", "better", "declined", "differs", "unsupported", "missing", "covered");
    auto line = [&](const rules::CoverageCount& c) {
      std::string l = fmt::format("{:<26} {:>6}", c.table, c.total());
      for (rules::Coverage k : kKinds)
        l += fmt::format(" {:>{}}", c.by_kind[static_cast<std::size_t>(k)],
                         std::max<std::size_t>(6, rules::to_string(k).size()));
      return l + fmt::format(" {:>7.1f}%\n", pct(c));
    };
    for (const auto& t : rep.tables) std::cout << line(t);
    std::cout << line(rep.total);
    std::cout << "covered = same + better (Ferry's name differs and its note says why, naming HIPIFY)\n";
    for (const auto& e : rep.entries)
      if (std::find(a.list.begin(), a.list.end(), rules::to_string(e.kind)) != a.list.end())
        std::cout << fmt::format("{}\t{}\t{}\t{}\t{}\n", rules::to_string(e.kind), e.name->table, e.name->cuda,
                                 e.name->target, e.ferry.empty() ? "(no rule)" : e.ferry);
  }
  return kExitOk;
}

int run_rules(const RulesArgs& a) {
  const auto target = targets::make_target(a.to, a.options);
  const rules::RuleSet& set = target->rules();
  if (!a.lookup.empty()) {
    const rules::Rule* r = set.find_identifier(a.lookup);
    if (!r) r = set.find_header(a.lookup);
    if (!r) r = set.find_namespace(a.lookup);
    if (!r) {
      std::cerr << "ferry: no rule for '" << a.lookup << "'\n";
      return kExitFindings;
    }
    std::cout << fmt::format("{} {} → {} [{}, {}] {}\n  from {}\n", rules::to_string(r->kind), r->from, r->to,
                             r->family, rules::to_string(r->status), r->note, r->origin());
    if (r->since.known() || !target->release().empty()) {
      const char* in_release = r->availability == rules::Availability::Available ? "available"
                               : r->availability == rules::Availability::Compat  ? "from Ferry's compat header"
                                                                                 : "missing: left unconverted";
      std::cout << fmt::format("  since {}; in {}: {}{}\n", r->since.known() ? r->since.str() : "-", target->release(),
                               in_release, r->compat.empty() ? "" : " (ferry/compat/" + std::string(r->compat) + ".h)");
    }
    return kExitOk;
  }
  if (!a.against_hipify.empty()) return run_against_hipify(a, *target);
  const auto stats = set.stats();
  if (a.stats) {
    static const char* kStatuses[] = {"supported", "changed", "deprecated", "unsupported"};
    if (a.json) {
      nlohmann::json j = stats;
      j["_total"] = set.size();
      std::cout << j.dump(2) << "\n";
      return kExitOk;
    }
    std::cout << fmt::format("{:<15} {:>9} {:>9} {:>10} {:>11} {:>7}\n", "family", "supported", "changed", "deprecated",
                             "unsupported", "total");
    std::map<std::string, std::size_t> col;
    std::size_t grand = 0;
    for (const auto& [fam, by] : stats) {
      std::size_t total = 0;
      std::string line = fmt::format("{:<15}", fam);
      for (const char* s : kStatuses) {
        const auto it = by.find(s);
        const std::size_t n = it == by.end() ? 0 : it->second;
        col[s] += n;
        total += n;
        line += fmt::format(" {:>{}}", n, std::string_view(s).size() < 9 ? 9 : std::string_view(s).size());
      }
      grand += total;
      std::cout << line << fmt::format(" {:>7}\n", total);
    }
    std::cout << fmt::format("{:<15} {:>9} {:>9} {:>10} {:>11} {:>7}\n", "TOTAL", col["supported"], col["changed"],
                             col["deprecated"], col["unsupported"], grand);
    return kExitOk;
  }
  for (const auto& r : set.all()) {
    if (!a.family.empty() && r->family != a.family) continue;
    std::cout << rules::to_string(r->kind) << '\t' << r->from << '\t' << r->to << '\t' << r->family << '\t'
              << rules::to_string(r->status) << (r->note.empty() ? "" : "\t" + std::string(r->note)) << '\n';
  }
  return kExitOk;
}

}  // namespace

std::function<int()> setup_rules(CLI::App& sub) {
  auto a = std::make_shared<RulesArgs>();
  sub.add_option("--to", a->to, "target whose rules to show")->capture_default_str();
  sub.add_flag("--stats", a->stats, "counts per family and status");
  sub.add_flag("--json", a->json, "with --stats: JSON");
  sub.add_option("--family", a->family, "only rules of this family");
  sub.add_option("--lookup", a->lookup, "show the rule for one name");
  sub.add_option("--against-hipify", a->against_hipify,
                 "with --stats: coverage of HIPIFY's API tables (ROCm/HIPIFY docs/tables folder)")
      ->check(CLI::ExistingDirectory);
  sub.add_option("--list", a->list,
                 "with --against-hipify: print the names of these kinds "
                 "(same, better, declined, differs, unsupported, missing)")
      ->delimiter(',');
  add_target_options(sub, a->options);
  sub.add_option("--rules", a->options.user_rule_files, "extra rule table(s)");
  return [a] { return run_rules(*a); };
}

}  // namespace ferry::cli
