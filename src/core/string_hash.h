// A hash of string keys that also takes a std::string_view, so that an unordered container of
// std::string (with std::equal_to<>) is looked up by a view without building a string.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace ferry {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace ferry
