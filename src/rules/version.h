// The version model: which release of the target ecosystem first has a name.
//
// A rule's `since` column holds the first release that provides its replacement (for the
// CUDA → HIP tables: the ROCm release, whose HIP and HIP libraries share its number). A target
// that is told which release it builds for (`--hip-version`) leaves names its release lacks
// unconverted, or covers them from Ferry's compat headers (targets/hip/compat.h).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ferry::rules {

struct Version {
  std::uint16_t major = 0;
  std::uint16_t minor = 0;

  // 0.0 stands for "unknown / every release": a rule with no `since` is never held back.
  [[nodiscard]] bool known() const { return major != 0 || minor != 0; }
  // `since` = "none": no release of the target has the name (only a compat header can give it).
  [[nodiscard]] static constexpr Version none() { return {0xFFFF, 0}; }
  [[nodiscard]] bool is_none() const { return major == 0xFFFF; }
  [[nodiscard]] std::string str() const {
    return is_none() ? "none" : std::to_string(major) + "." + std::to_string(minor);
  }
  friend auto operator<=>(const Version&, const Version&) = default;
  friend bool operator==(const Version&, const Version&) = default;

  // "5.2", "5.2.3", "5.2.21153-0" (the patch and anything after it are ignored); nullopt
  // for anything else.
  [[nodiscard]] static std::optional<Version> parse(std::string_view s);
};

}  // namespace ferry::rules
