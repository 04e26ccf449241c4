#include "migrate/json_spool.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

namespace ferry::migrate {

void JsonSpool::add(const std::string& key, std::string_view dumped) { at_[key] = bytes_.add(dumped); }

std::optional<std::string> JsonSpool::find(const std::string& key) const {
  const auto it = at_.find(key);
  if (it == at_.end()) return std::nullopt;
  return bytes_.read(it->second);
}

void JsonSpool::for_each(const std::function<void(const std::string&, const std::string&)>& f) const {
  std::string value;
  for (const auto& [key, span] : at_) {
    value = bytes_.read(span);
    f(key, value);
  }
}

void JsonSpool::write_object(std::ostream& out, int depth) const {
  if (at_.empty()) {
    out << "{}";
    return;
  }
  const bool pretty = depth >= 0;
  const std::string inner = pretty ? "\n" + std::string(static_cast<std::size_t>(depth) + 1, ' ') : "";
  out << '{';
  bool first = true;
  for (const auto& [key, span] : at_) {
    if (!first) out << ',';
    first = false;
    out << inner << nlohmann::json(key).dump() << (pretty ? ": " : ":");
    bytes_.read(span, [&](std::string_view part) {
      if (!pretty) {
        out << part;
        return;
      }
      for (std::size_t nl; (nl = part.find('\n')) != std::string_view::npos; part.remove_prefix(nl + 1))
        out << part.substr(0, nl) << inner;
      out << part;
    });
  }
  if (pretty) out << '\n' << std::string(static_cast<std::size_t>(depth), ' ');
  out << '}';
}

}  // namespace ferry::migrate
