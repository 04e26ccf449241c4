// core/diagnostic_json: the one JSON form of a diagnostic, and reading it back.
#include "core/diagnostic_json.h"

#include <gtest/gtest.h>

namespace ferry {
namespace {

Diagnostic sample() {
  return Diagnostic{Diag::LaneId32, Severity::Error, "src/k.cu", 12, 7, "lane id assumes 32 lanes", "use warpSize"};
}

TEST(DiagnosticJson, WritesEveryField) {
  const nlohmann::json j = to_json(sample());
  EXPECT_EQ(j.dump(), R"({"code":"FRY2201","col":7,"file":"src/k.cu","hint":"use warpSize","line":12,)"
                      R"("message":"lane id assumes 32 lanes","severity":"error"})");
}

TEST(DiagnosticJson, WithoutFileForTheManifest) {
  const nlohmann::json j = to_json(sample(), WithFile::No);
  EXPECT_FALSE(j.contains("file"));
  EXPECT_EQ(j.size(), 6u);
}

TEST(DiagnosticJson, ListIsAnArrayInOrder) {
  Diagnostic b = sample();
  b.line = 3;
  const nlohmann::json a = to_json(std::vector<Diagnostic>{sample(), b});
  ASSERT_TRUE(a.is_array());
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[1]["line"], 3);
  EXPECT_TRUE(to_json(std::vector<Diagnostic>{}).is_array());
}

TEST(DiagnosticJson, RoundTripsInTheGivenFile) {
  for (Severity s : {Severity::Note, Severity::Warning, Severity::Error}) {
    Diagnostic d = sample();
    d.severity = s;
    const std::optional<Diagnostic> back = diagnostic_from_json("src/k.cu", to_json(d, WithFile::No));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->format(), d.format());
    EXPECT_EQ(back->severity, s);
  }
  // The object's own "file" is not what decides: the caller names the file.
  EXPECT_EQ(diagnostic_from_json("other.cu", to_json(sample()))->file, "other.cu");
}

TEST(DiagnosticJson, OtherVersionsAndGaps) {
  EXPECT_FALSE(diagnostic_from_json("a.cu", {{"code", "FRY0000"}, {"line", 1}}));  // unknown code
  EXPECT_FALSE(diagnostic_from_json("a.cu", nlohmann::json::object()));
  const std::optional<Diagnostic> d = diagnostic_from_json("a.cu", {{"code", "FRY2201"}, {"severity", "fatal"}});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_EQ(d->line, 0u);
  EXPECT_EQ(d->message, "");
}

}  // namespace
}  // namespace ferry
