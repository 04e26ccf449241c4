// A single self-contained HTML report for people, derived from the JSON report bundle
// (report::collect_report): summary numbers, the history of rounds as an inline SVG chart, the
// hazard list (FRY2xxx wave64/warp, FRY3xxx resource limits), verify results, and per file a
// side-by-side diff of the original and the output with each diagnostic under its original line.
// Inline CSS and JS only, no external URL: the file can be mailed or attached to CI as it is.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ferry::report {

// Text of a file by its path relative to the tree root; nullopt when absent or unreadable.
using SourceReader = std::function<std::optional<std::string>(const std::string& rel)>;

struct HtmlSources {
  SourceReader original;                  // the input tree
  SourceReader output;                    // OUT
  nlohmann::json linemaps = nullptr;      // OUT/.ferry/linemaps.json (marks lines Ferry changed)
  std::size_t max_file_bytes = 2u << 20;  // larger files are listed without a diff
};

// Escapes & < > " ' for text and attribute values.
[[nodiscard]] std::string html_escape(std::string_view s);

[[nodiscard]] std::string to_html(const nlohmann::json& report, const HtmlSources& sources);

// The operator page: the result of `ferry opcheck` (its JSON, docs/opcheck.md) as a
// self-contained page — summary cards, then per operator a table of dtype x shape x
// implementation with errors, a ULP histogram, the verdict and the time against the baseline.
[[nodiscard]] std::string opcheck_to_html(const nlohmann::json& opcheck);
// The same tables as a <section id="operators">, for the migration report of a tree that has
// opcheck results recorded (OUT/.ferry/opcheck.json).
[[nodiscard]] std::string opcheck_section(const nlohmann::json& opcheck);

}  // namespace ferry::report
