// The report of a migrated tree as one JSON document, assembled from OUT/.ferry/: the migration
// report (OUT/.ferry/report.json, written by `ferry migrate`; rebuilt from the manifest for trees
// migrated before it existed), the history of rounds (rounds.json) and the last verify result
// (verify.json). SARIF and HTML are derived from it. Schema: docs/report-schema.md.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ferry::report {

inline constexpr const char* kMigrationReportFile = ".ferry/report.json";
inline constexpr const char* kVerifyResultFile = ".ferry/verify.json";
inline constexpr const char* kOpcheckResultFile = ".ferry/opcheck.json";  // ferry opcheck --record OUT

// Writes the migration JSON of this round into OUT/.ferry/report.json. Files a round skipped as
// "unchanged" keep the statistics the previous report had for them, and the totals are
// recomputed, so the report describes the whole tree and not only what this round touched.
// Taken by value: callers that are done with it move it in (a large tree's report is tens of MB
// as JSON values).
void record_migration(const std::filesystem::path& out, nlohmann::json migration);

// Writes a verify result (verify::to_json) into OUT/.ferry/verify.json, with "total" and
// "pass_rate" added to its summary for `ferry status`.
void record_verify(const std::filesystem::path& out, nlohmann::json verify);

// A verify result of some files merged into an earlier one of the whole tree: every unit of a file
// `partial` compiled replaces that file's units in `previous` (all arches), the original checks
// likewise, and the summary is counted again from the merged units. `previous` null: `partial`.
[[nodiscard]] nlohmann::json merge_verify(const nlohmann::json& previous, const nlohmann::json& partial);

// {"tool","command":"report","version":1,"ferry_version","output","input","target",
//  "migration":{...},"rounds":[...],"verify":{...}|null,"opcheck":{...}|null}. Throws std::invalid_argument when OUT
// holds no .ferry/manifest.json.
[[nodiscard]] nlohmann::json collect_report(const std::filesystem::path& out);

// The report of OUT in `format` "json" (the bundle above), "sarif" (report/sarif.h) or "html"
// (report/html.h: originals read from the input tree, outputs from OUT). Throws
// std::invalid_argument for another format or a tree without a manifest.
[[nodiscard]] std::string render_report(const std::filesystem::path& out, std::string_view format);

}  // namespace ferry::report
