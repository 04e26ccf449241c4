#include "report/sarif.h"

#include <gtest/gtest.h>

namespace ferry::report {
namespace {

using json = nlohmann::json;

json sample_report() {
  json diags = json::array();
  diags.push_back({{"code", "FRY2101"},
                   {"severity", "warning"},
                   {"file", "src/warp ops.cu"},
                   {"line", 12},
                   {"col", 5},
                   {"message", "mask is not the full mask"},
                   {"hint", "use the full mask"}});
  diags.push_back({{"code", "FRY1001"},
                   {"severity", "error"},
                   {"file", "a.cu"},
                   {"line", 3},
                   {"col", 1},
                   {"message", "no HIP equivalent"},
                   {"hint", ""}});
  diags.push_back({{"code", "FRY2101"},
                   {"severity", "warning"},
                   {"file", "a.cu"},
                   {"line", 0},
                   {"col", 0},
                   {"message", "whole file"},
                   {"hint", ""}});
  return {{"input", "/src/proj"}, {"ferry_version", "0.1.0"}, {"migration", {{"diagnostics", diags}}}};
}

TEST(Sarif, ParsesDiagnosticDocsHeadings) {
  const auto docs = parse_diagnostic_docs(
      "# Diagnostics\n\n### FRY2101 — warp intrinsic with a mask that is not the full mask (warning)\ntext\n"
      "### FRY1101 — `__match_any_sync` unsupported on HIP 5.2 (warning)\n## Not a code\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs.at("FRY2101").title, "warp intrinsic with a mask that is not the full mask");
  EXPECT_EQ(docs.at("FRY2101").anchor, "fry2101--warp-intrinsic-with-a-mask-that-is-not-the-full-mask-warning");
  EXPECT_EQ(docs.at("FRY1101").title, "__match_any_sync unsupported on HIP 5.2");
  EXPECT_EQ(docs.at("FRY1101").anchor, "fry1101--__match_any_sync-unsupported-on-hip-52-warning");
}

TEST(Sarif, BuildsRulesResultsAndLocations) {
  std::map<std::string, RuleDoc> docs{{"FRY2101", {"warp intrinsic mask", "fry2101--warp"}}};
  const json s = to_sarif(sample_report(), docs, "file:///ferry/docs/diagnostics.md");
  EXPECT_EQ(s["version"], "2.1.0");
  EXPECT_EQ(s["$schema"], std::string(kSarifSchema));
  ASSERT_EQ(s["runs"].size(), 1u);
  const json& run = s["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "ferry");
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 2u);  // one per code seen, in code order
  EXPECT_EQ(rules[0]["id"], "FRY1001");
  EXPECT_EQ(rules[0]["shortDescription"]["text"], "no HIP equivalent");  // undocumented: first message
  EXPECT_EQ(rules[1]["id"], "FRY2101");
  EXPECT_EQ(rules[1]["shortDescription"]["text"], "warp intrinsic mask");
  EXPECT_EQ(rules[1]["helpUri"], "file:///ferry/docs/diagnostics.md#fry2101--warp");
  const json& results = run["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["ruleId"], "FRY2101");
  EXPECT_EQ(results[0]["ruleIndex"], 1);
  EXPECT_EQ(results[0]["level"], "warning");
  EXPECT_EQ(results[0]["message"]["text"], "mask is not the full mask\nFix: use the full mask");
  EXPECT_EQ(results[0]["properties"]["hint"], "use the full mask");
  const json& loc = results[0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "src/warp%20ops.cu");
  EXPECT_EQ(loc["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(loc["region"]["startLine"], 12);
  EXPECT_EQ(loc["region"]["startColumn"], 5);
  EXPECT_EQ(results[1]["level"], "error");
  EXPECT_EQ(results[1]["ruleIndex"], 0);
  EXPECT_FALSE(results[2]["locations"][0]["physicalLocation"].contains("region"));  // whole file
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///src/proj/");
}

TEST(Sarif, EmptyReportIsStillValidShape) {
  const json s = to_sarif(json::object(), {}, "file:///d.md");
  EXPECT_TRUE(s["runs"][0]["results"].empty());
  EXPECT_TRUE(s["runs"][0]["tool"]["driver"]["rules"].empty());
}

TEST(Sarif, EncodesUris) {
  EXPECT_EQ(uri_encode_path("a b/c#d%.cu"), "a%20b/c%23d%25.cu");
  EXPECT_EQ(heading_anchor("FRY3201 — static `__shared__` memory (warning)"),
            "fry3201--static-__shared__-memory-warning");
}

}  // namespace
}  // namespace ferry::report
