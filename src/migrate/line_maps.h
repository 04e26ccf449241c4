// OUT/.ferry/linemaps.json, as the tree migration writes it (docs/verify.md): per migrated file,
// output line -> original line, the output lines an edit touched, and the original lines that
// got a diagnostic. Neither this round's maps nor last round's are held in memory as JSON values:
// a large tree's maps are tens of MB as values, more than the tree's largest file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "migrate/json_spool.h"

namespace ferry::migrate {

// This round's maps: each file's entry (its JSON, dumped) goes to an anonymous temporary file
// (a JsonSpool) as the file is done; `write` puts them into the file in the order of their paths.
class LineMapSpool {
 public:
  // The entry of `rel` (a later one replaces an earlier). Not thread-safe: callers lock.
  void add(const std::string& rel, std::string_view entry) { spool_.add(rel, entry); }
  // Writes `{"files":{REL:ENTRY,...},"version":1}` to `path` atomically: what nlohmann::json's
  // dump() of those values writes (keys sorted).
  void write(const std::filesystem::path& path) const;

 private:
  JsonSpool spool_{"the line maps"};
};

// Last round's maps (a file skipped as unchanged keeps its entry): where each entry lies in the
// file, which is read again for an entry when asked for (this round replaces it only at its end).
class PreviousLineMaps {
 public:
  // Reads `path`; no entries when it is absent or not valid JSON.
  explicit PreviousLineMaps(const std::filesystem::path& path);
  // The entry of `rel`, dumped (as nlohmann::json's dump() writes it), or nullopt.
  [[nodiscard]] std::optional<std::string> entry(const std::string& rel) const;

 private:
  std::filesystem::path path_;
  std::map<std::string, std::pair<std::size_t, std::size_t>> at_;  // rel -> (offset, bytes)
};

}  // namespace ferry::migrate
