#include "rules/version.h"

#include <charconv>

namespace ferry::rules {

std::optional<Version> Version::parse(std::string_view s) {
  unsigned major = 0, minor = 0;
  const char* p = s.data();
  const char* end = s.data() + s.size();
  auto r = std::from_chars(p, end, major);
  if (r.ec != std::errc() || r.ptr == p || r.ptr == end || *r.ptr != '.') return std::nullopt;
  p = r.ptr + 1;
  r = std::from_chars(p, end, minor);
  if (r.ec != std::errc() || r.ptr == p || major > 999 || minor > 999) return std::nullopt;
  // A patch level may follow ("5.2.3", "5.2.21153-0"); a letter right after the minor may not.
  if (r.ptr != end && *r.ptr != '.') return std::nullopt;
  return Version{static_cast<std::uint16_t>(major), static_cast<std::uint16_t>(minor)};
}

}  // namespace ferry::rules
