// A JSON state file of an output tree (OUT/.ferry/manifest.json, the recorded reports) read back.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

namespace ferry::project {

// The parsed content of `path`, or null when it is no regular file, cannot be read or is not
// JSON: what a reader of a tree written by another run (or version, or a killed run) expects.
[[nodiscard]] nlohmann::json read_json_or_null(const std::filesystem::path& path);

}  // namespace ferry::project
