#include "migrate/line_maps.h"

#include <fstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "project/project.h"

namespace ferry::migrate {

void LineMapSpool::write(const std::filesystem::path& path) const {
  project::write_atomically(path, [&](std::ostream& out) {
    out << "{\"files\":";
    spool_.write_object(out);
    out << ",\"version\":1}";
  });
}

namespace {

// A reader of text that is valid JSON (nlohmann::json::accept said so): where values end.
struct Scan {
  std::string_view s;
  std::size_t i = 0;
  void blanks() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  void string() {  // at the opening quote
    for (++i; i < s.size() && s[i] != '"'; ++i)
      if (s[i] == '\\') ++i;
    ++i;
  }
  void value() {  // at a value's first character: past its end
    if (s[i] == '"') return string();
    if (s[i] == '{' || s[i] == '[') {
      int depth = 0;
      do {
        if (s[i] == '"') {
          string();
          continue;
        }
        if (s[i] == '{' || s[i] == '[') ++depth;
        else if (s[i] == '}' || s[i] == ']') --depth;
        ++i;
      } while (depth > 0 && i < s.size());
      return;
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
           s[i] != '\r')
      ++i;
  }
  // At an object's '{': calls f(key text with its quotes, value offset, value bytes) per member.
  template <class F>
  void members(F f) {
    ++i;
    for (blanks(); i < s.size() && s[i] != '}';) {
      const std::size_t k = i;
      string();
      const std::string_view key = s.substr(k, i - k);
      blanks();
      ++i;  // ':'
      blanks();
      const std::size_t v = i;
      value();
      f(key, v, i - v);
      blanks();
      if (i < s.size() && s[i] == ',') ++i;
      blanks();
    }
    ++i;
  }
};

}  // namespace

PreviousLineMaps::PreviousLineMaps(const std::filesystem::path& path) : path_(path) {
  std::string text;
  try {
    text = project::read_file(path);
  } catch (const std::exception&) {
    return;
  }
  Scan top{text};
  top.blanks();
  if (top.i >= text.size() || text[top.i] != '{' || !nlohmann::json::accept(text)) return;
  // The last "files" member wins, as in nlohmann::json's parse.
  std::optional<std::pair<std::size_t, std::size_t>> files;
  top.members([&](std::string_view key, std::size_t at, std::size_t n) {
    if (nlohmann::json::parse(key).get<std::string>() == "files") files = {at, n};
  });
  if (!files || text[files->first] != '{') return;
  Scan in{text, files->first};
  in.members([&](std::string_view key, std::size_t at, std::size_t n) {
    at_[nlohmann::json::parse(key).get<std::string>()] = {at, n};
  });
}

std::optional<std::string> PreviousLineMaps::entry(const std::string& rel) const {
  const auto it = at_.find(rel);
  if (it == at_.end()) return std::nullopt;
  std::ifstream in(path_, std::ios::binary);
  std::string text(it->second.second, '\0');
  if (!in.seekg(static_cast<std::streamoff>(it->second.first)) ||
      !in.read(text.data(), static_cast<std::streamsize>(text.size())))
    return std::nullopt;
  try {
    return nlohmann::json::parse(text).dump();
  } catch (const std::exception&) {  // the file changed since
    return std::nullopt;
  }
}

}  // namespace ferry::migrate
