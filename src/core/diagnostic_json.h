// The one JSON form of a diagnostic (docs/report-schema.md, "diagnostics"): every report, the
// scan inventory and the rounds manifest write it, and read it back, through these functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"

namespace ferry {

// Whether the object names its file: not where the enclosing object already does (the rounds
// manifest keeps each file's diagnostics in that file's entry).
enum class WithFile : bool { No, Yes };

// {"code", "severity", "file", "line", "col", "message", "hint"}.
[[nodiscard]] nlohmann::json to_json(const Diagnostic& d, WithFile with_file = WithFile::Yes);
[[nodiscard]] nlohmann::json to_json(const std::vector<Diagnostic>& diags);

// Back from that form, in `file` (the object's own "file" is not read). nullopt for a code this
// version does not know (a report or manifest written by another version); a missing or unknown
// severity reads as a warning.
[[nodiscard]] std::optional<Diagnostic> diagnostic_from_json(const std::string& file, const nlohmann::json& j);

}  // namespace ferry
