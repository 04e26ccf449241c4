#include "report/html.h"

#include <gtest/gtest.h>

namespace ferry::report {
namespace {

using json = nlohmann::json;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

json sample() {
  json diags = json::array();
  diags.push_back({{"code", "FRY2201"},
                   {"severity", "warning"},
                   {"file", "k.cu"},
                   {"line", 2},
                   {"col", 3},
                   {"message", "lane id for <32> & co"},
                   {"hint", "use warpSize"}});
  diags.push_back({{"code", "FRY1001"},
                   {"severity", "error"},
                   {"file", "k.cu"},
                   {"line", 3},
                   {"col", 1},
                   {"message", "no HIP equivalent"},
                   {"hint", ""}});
  json files = json::array({{{"path", "k.cu"}, {"kind", "cuda"}, {"action", "migrated"}, {"diagnostics", 2}},
                            {{"path", "README.md"}, {"kind", "other"}, {"action", "copied"}, {"diagnostics", 0}}});
  json rounds = json::array({{{"round", 1}, {"migrated", 1}, {"copied", 1}, {"diagnostics", 2}},
                             {{"round", 2}, {"unchanged", 2}, {"diagnostics", 2}}});
  return {{"input", "/in"},
          {"output", "/out"},
          {"target", "hip"},
          {"ferry_version", "0.1.0"},
          {"migration",
           {{"files", files},
            {"diagnostics", diags},
            {"totals",
             {{"converted", {{"runtime", 4}}},
              {"unconverted", {{"driver", 1}}},
              {"diagnostics_by_code", {{"FRY1001", 1}, {"FRY2201", 1}}}}}}},
          {"rounds", rounds},
          {"verify", nullptr}};
}

HtmlSources sources() {
  HtmlSources s;
  s.original = [](const std::string& rel) -> std::optional<std::string> {
    if (rel == "k.cu")
      return "#include <cuda_runtime.h>\nint lane = threadIdx.x & 31;\ncuFoo();\nint a = b < c && d > e;\n";
    if (rel == "README.md") return "hello\n";
    return std::nullopt;
  };
  s.output = [](const std::string& rel) -> std::optional<std::string> {
    if (rel == "k.cu")
      return "#include <hip/hip_runtime.h>\nint lane = threadIdx.x & 31;\ncuFoo();\nint a = b < c && d > e;\n";
    if (rel == "README.md") return "hello\n";
    return std::nullopt;
  };
  s.linemaps = {{"files", {{"k.cu", {{"changed_out_lines", {1}}}}}}};
  return s;
}

TEST(Html, EscapesEverything) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  const std::string h = to_html(sample(), sources());
  EXPECT_NE(h.find("#include &lt;hip/hip_runtime.h&gt;"), std::string::npos);
  EXPECT_NE(h.find("b &lt; c &amp;&amp; d &gt; e"), std::string::npos);
  EXPECT_NE(h.find("lane id for &lt;32&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(h.find("<cuda_runtime.h>"), std::string::npos);
  EXPECT_EQ(h.find("<32>"), std::string::npos);
}

TEST(Html, SelfContained) {
  const std::string h = to_html(sample(), sources());
  EXPECT_EQ(h.find("src=\"http"), std::string::npos);
  EXPECT_EQ(h.find("href=\"http"), std::string::npos);
  EXPECT_EQ(h.find("@import"), std::string::npos);
  EXPECT_EQ(h.find("url("), std::string::npos);
  EXPECT_EQ(count(h, "<script"), 1u);
  EXPECT_EQ(count(h, "<style>"), 1u);
}

TEST(Html, SummaryHazardsRoundsAndDiff) {
  const std::string h = to_html(sample(), sources());
  EXPECT_NE(h.find(R"(id="sum-files" data-value="2")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="sum-migrated" data-value="1")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="sum-diagnostics" data-value="2")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="sum-errors" data-value="1")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="sum-hazards" data-value="1")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="sum-converted" data-value="4")"), std::string::npos);
  EXPECT_EQ(count(h, "<tr class=\"hazard\">"), 1u);
  EXPECT_NE(h.find("<svg id=\"rounds-chart\""), std::string::npos);
  EXPECT_EQ(count(h, "round 1</text>"), 1u);
  EXPECT_EQ(count(h, "round 2</text>"), 1u);
  EXPECT_NE(h.find("id=\"verify-none\""), std::string::npos);
  // One changed line pair (the include), marked as Ferry's, and both diagnostics under their lines.
  EXPECT_EQ(count(h, "<tr class=\"chg\">"), 1u);
  EXPECT_EQ(count(h, "title=\"changed by Ferry\""), 1u);
  EXPECT_EQ(count(h, "<tr class=\"diag "), 2u);
  const std::size_t line2 = h.find("int lane = threadIdx.x &amp; 31;");
  const std::size_t diag2 = h.find("FRY2201</b> k.cu:2:3");
  const std::size_t line3 = h.find("cuFoo();");
  ASSERT_NE(diag2, std::string::npos);
  EXPECT_LT(line2, diag2);
  EXPECT_LT(diag2, line3);
  EXPECT_NE(h.find("identical to the original."), std::string::npos);  // README.md
}

TEST(Html, VerifyResults) {
  json r = sample();
  r["verify"] = {
      {"summary", {{"compiles", 4}, {"passed", 3}, {"failed", 1}, {"by_class", {{"missing-dependency", 1}}}}},
      {"units", json::array({{{"file", "k.cu"},
                              {"arch", "gfx906"},
                              {"status", "fail"},
                              {"class", "missing-dependency"},
                              {"seconds", 1.5},
                              {"errors", json::array({{{"message", "'hipblas.h' file not found"},
                                                       {"original", {{"file", "k.cu"}, {"line", 1}}}}})}}})}};
  const std::string h = to_html(r, sources());
  EXPECT_NE(h.find(R"(id="sum-verify" data-value="75%")"), std::string::npos);
  EXPECT_NE(h.find(R"(id="verify-failed" data-value="1")"), std::string::npos);
  EXPECT_NE(h.find("k.cu:1: &#39;hipblas.h&#39; file not found"), std::string::npos);
}

}  // namespace
}  // namespace ferry::report
