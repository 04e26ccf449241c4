#include "migrate/json_spool.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

namespace ferry::migrate {

JsonSpool::JsonSpool(std::string what) : what_(std::move(what)), spool_(std::tmpfile()) {
  if (!spool_) throw std::runtime_error("cannot create a temporary file for " + what_);
}

JsonSpool::~JsonSpool() { std::fclose(spool_); }

void JsonSpool::add(const std::string& key, std::string_view dumped) {
  if (std::fseek(spool_, 0, SEEK_END) != 0 || std::fwrite(dumped.data(), 1, dumped.size(), spool_) != dumped.size())
    throw std::runtime_error("cannot write the temporary file of " + what_ + " (disk full?)");
  at_[key] = {size_, dumped.size()};
  size_ += dumped.size();
}

void JsonSpool::read(const std::pair<std::uint64_t, std::size_t>& span,
                     const std::function<void(std::string_view)>& f) const {
  if (std::fflush(spool_) != 0)
    throw std::runtime_error("cannot write the temporary file of " + what_ + " (disk full?)");
  if (std::fseek(spool_, static_cast<long>(span.first), SEEK_SET) != 0)
    throw std::runtime_error("cannot read the temporary file of " + what_);
  std::vector<char> buf(std::min<std::size_t>(span.second, 1 << 16));
  for (std::size_t left = span.second; left > 0;) {
    const std::size_t n = std::fread(buf.data(), 1, std::min(left, buf.size()), spool_);
    if (n == 0) throw std::runtime_error("cannot read the temporary file of " + what_);
    f(std::string_view(buf.data(), n));
    left -= n;
  }
}

std::optional<std::string> JsonSpool::find(const std::string& key) const {
  const auto it = at_.find(key);
  if (it == at_.end()) return std::nullopt;
  std::string value;
  read(it->second, [&](std::string_view part) { value += part; });
  return value;
}

void JsonSpool::for_each(const std::function<void(const std::string&, const std::string&)>& f) const {
  std::string value;
  for (const auto& [key, span] : at_) {
    value.clear();
    read(span, [&](std::string_view part) { value += part; });
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
    read(span, [&](std::string_view part) {
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
