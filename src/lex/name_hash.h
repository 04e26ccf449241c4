// The hash of an identifier's text that Ferry's name tables share: CodeView's name index
// (code_view.cpp) and the ways back's generated tables (targets/way_back.h), whose generator
// places each name by this hash at build time while their lookups hash at run time: so the
// value is the same on every machine (words are read as little-endian whatever the byte order).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace ferry::lex {

namespace detail {
[[nodiscard, gnu::always_inline]] inline std::uint64_t load_le64(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}
// Every bit of `h` into the low bits, which index the tables (MurmurHash3's finalizer): a word's
// last bytes are its high bits, and a multiplication carries a bit only upwards.
[[nodiscard, gnu::always_inline]] inline std::uint64_t fold(std::uint64_t h) {
  h = (h ^ (h >> 33)) * 0xFF51AFD7ED558CCDull;
  h = (h ^ (h >> 33)) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}
}  // namespace detail

// Words of the name's bytes, multiplied and folded: a name of 8 bytes or more ends with its last
// 8 bytes (overlapping the word before), a shorter one is one word of its bytes. No call and no
// loop per byte (std::hash's byte loop was a tenth of a migration's time when every identifier
// went through it, and a copy of a name's last bytes was a call to memcpy).
[[nodiscard]] inline std::uint64_t name_hash(std::string_view s) {
  const std::size_t n = s.size();
  const char* const p = s.data();
  std::uint64_t h = 0x9E3779B97F4A7C15ull * (n + 1);
  if (n < 8) {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < n; ++i) w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    return detail::fold(h ^ w);
  }
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ detail::load_le64(p + i)) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  if (i < n) h = (h ^ detail::load_le64(p + n - 8)) * 0xC4CEB9FE1A85EC53ull;
  return detail::fold(h);
}

}  // namespace ferry::lex
