// JSON is the source of truth for every report (SARIF and HTML are derived from it).
// The schema is documented in docs/report-schema.md.
#pragma once

#include <nlohmann/json.hpp>

#include "core/diagnostic_json.h"
#include "migrate/migrate_tree.h"

namespace ferry::report {

// A diagnostic's own JSON form is core's (core/diagnostic_json.h: ferry::to_json).
[[nodiscard]] nlohmann::json migration_to_json(const migrate::TreeResult& r, std::string_view target,
                                               std::string_view input, std::string_view output);

// Text summary in the spirit of hipify's --print-stats: totals, per-family counts, codes.
[[nodiscard]] std::string migration_summary(const migrate::TreeResult& r);

}  // namespace ferry::report
