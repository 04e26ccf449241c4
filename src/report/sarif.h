// SARIF 2.1.0 from Ferry's JSON report (JSON is the source of truth; docs/report-schema.md), so
// IDEs and code-review tools show Ferry's diagnostics inline.
//
// One run; tool.driver.rules holds every diagnostic code seen (short description from the
// docs/diagnostics.md heading of the code when known, else the first message; helpUri at the
// code's anchor there); each result has ruleId/ruleIndex, level, message (with the fix), and a
// physical location relative to the input root (uriBaseId SRCROOT).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ferry::report {

inline constexpr std::string_view kSarifSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

struct RuleDoc {
  std::string title;   // "warp intrinsic with a mask that is not the full mask"
  std::string anchor;  // GitHub-style heading anchor in docs/diagnostics.md
};

// The "### FRYnnnn — title (severity)" headings of docs/diagnostics.md, by code.
[[nodiscard]] std::map<std::string, RuleDoc> parse_diagnostic_docs(std::string_view markdown);

// GitHub's anchor for a Markdown heading text: lower case, spaces to '-', punctuation dropped.
[[nodiscard]] std::string heading_anchor(std::string_view heading);

// Percent-encodes a relative path for a URI reference ('/' kept).
[[nodiscard]] std::string uri_encode_path(std::string_view path);

// `report`: the bundle of report::collect_report (or any JSON with "migration"."diagnostics").
// `docs_uri`: absolute URI of docs/diagnostics.md that helpUri anchors are appended to.
[[nodiscard]] nlohmann::json to_sarif(const nlohmann::json& report, const std::map<std::string, RuleDoc>& docs,
                                      std::string_view docs_uri);

}  // namespace ferry::report
