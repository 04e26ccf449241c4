// Named JSON values, each dumped as it is made and kept in an anonymous temporary file instead of
// in memory, until they are written out as the members of one object. A tree migration's per-file
// records (its line maps, its manifest entries with their diagnostics) grow with the tree, and
// as JSON values they were several times the tree's largest file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "core/byte_spool.h"

namespace ferry::migrate {

class JsonSpool {
 public:
  // `what` names the records in errors ("the line maps").
  explicit JsonSpool(std::string what) : bytes_(std::move(what)) {}
  JsonSpool(const JsonSpool&) = delete;
  JsonSpool& operator=(const JsonSpool&) = delete;

  // The value of `key`, dumped (a later one replaces an earlier). Not thread-safe: callers lock.
  void add(const std::string& key, std::string_view dumped);
  [[nodiscard]] std::size_t size() const { return at_.size(); }
  // The dumped value of `key`, or nullopt.
  [[nodiscard]] std::optional<std::string> find(const std::string& key) const;
  // Calls f(key, dumped value) for each entry, in key order, one value read at a time.
  void for_each(const std::function<void(const std::string&, const std::string&)>& f) const;
  // Writes the object `{KEY:VALUE,...}` (keys in order, as nlohmann::json writes a std::map).
  // depth < 0: compact, as dump() writes it. depth >= 0: as dump(1) writes the object when it is a
  // member `depth` levels deep (depth 1: a member of the top object); the values must have been
  // dumped with dump(1) (they are indented further here: a dumped string holds no raw newline).
  void write_object(std::ostream& out, int depth = -1) const;

 private:
  ByteSpool bytes_;
  std::map<std::string, ByteSpool::Span> at_;  // key -> where its value is
};

}  // namespace ferry::migrate
