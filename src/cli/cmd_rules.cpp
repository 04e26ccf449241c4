#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
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
};

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
    std::cout << fmt::format("{} {} → {} [{}, {}] {}\n  from {}\n", rules::to_string(r->kind), r->from,
                             r->to, r->family, rules::to_string(r->status), r->note, r->origin);
    if (r->since.known() || !target->release().empty()) {
      const char* in_release = r->availability == rules::Availability::Available ? "available"
                               : r->availability == rules::Availability::Compat  ? "from Ferry's compat header"
                                                                                 : "missing: left unconverted";
      std::cout << fmt::format("  since {}; in {}: {}{}\n", r->since.known() ? r->since.str() : "-",
                               target->release(), in_release,
                               r->compat.empty() ? "" : " (ferry/compat/" + r->compat + ".h)");
    }
    return kExitOk;
  }
  const auto stats = set.stats();
  if (a.stats) {
    static const char* kStatuses[] = {"supported", "changed", "deprecated", "unsupported"};
    if (a.json) {
      nlohmann::json j = stats;
      j["_total"] = set.size();
      std::cout << j.dump(2) << "\n";
      return kExitOk;
    }
    std::cout << fmt::format("{:<15} {:>9} {:>9} {:>10} {:>11} {:>7}\n", "family", "supported",
                             "changed", "deprecated", "unsupported", "total");
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
    std::cout << fmt::format("{:<15} {:>9} {:>9} {:>10} {:>11} {:>7}\n", "TOTAL", col["supported"],
                             col["changed"], col["deprecated"], col["unsupported"], grand);
    return kExitOk;
  }
  for (const auto& r : set.all()) {
    if (!a.family.empty() && r->family != a.family) continue;
    std::cout << rules::to_string(r->kind) << '\t' << r->from << '\t' << r->to << '\t' << r->family
              << '\t' << rules::to_string(r->status) << (r->note.empty() ? "" : "\t" + r->note) << '\n';
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
  add_target_options(sub, a->options);
  sub.add_option("--rules", a->options.user_rule_files, "extra rule table(s)");
  return [a] { return run_rules(*a); };
}

}  // namespace ferry::cli
