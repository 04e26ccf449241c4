// Internal: fixed-width bit packing (LSB first) and a bounds-checked byte reader for codec streams.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "ferry/comm/codec_wire.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm::codec_detail {

// Round to nearest even without a libm call (the x86-64 baseline has no SSE4.1 round): adding and
// subtracting 1.5 * 2^mantissa_bits leaves the rounded value for |v| < 2^(mantissa_bits - 1).
// Needs -ffp-contract=off and no -ffast-math, which the library's build sets.
inline float round_even(float v) {
  constexpr float magic = wire::round_even_magic;  // 1.5 * 2^23, valid for |v| < 2^22
  return (v + magic) - magic;
}
inline double round_even(double v) {
  constexpr double magic = 6755399441055744.0;  // 1.5 * 2^52, valid for |v| < 2^51
  return (v + magic) - magic;
}

using wire::packed_bytes;

inline std::byte* pack_bits(const std::uint32_t* v, std::size_t n, unsigned bits, std::byte* out) {
  if (bits == 0) return out;
  std::uint64_t acc = 0;
  unsigned fill = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc |= static_cast<std::uint64_t>(v[i]) << fill;
    fill += bits;
    if (fill >= 32) {
      std::uint32_t w = static_cast<std::uint32_t>(acc);
      std::memcpy(out, &w, 4);  // little-endian hosts only (x86-64, aarch64)
      out += 4;
      acc >>= 32;
      fill -= 32;
    }
  }
  while (fill > 0) {
    *out++ = static_cast<std::byte>(acc & 0xFF);
    acc >>= 8;
    fill = fill > 8 ? fill - 8 : 0;
  }
  return out;
}

inline void unpack_bits(const std::byte* in, std::size_t n, unsigned bits, std::uint32_t* v) {
  if (bits == 0) {
    std::memset(v, 0, n * sizeof *v);
    return;
  }
  const std::uint64_t mask = bits == 32 ? 0xFFFFFFFFull : ((1ull << bits) - 1);
  const std::size_t total = packed_bytes(n, bits);
  std::size_t i = 0;
  // Fast path: one unaligned 8-byte load per value while 8 bytes remain readable.
  for (; i < n; ++i) {
    std::size_t bit = i * bits, byte = bit >> 3;
    if (byte + 8 > total) break;
    std::uint64_t w;
    std::memcpy(&w, in + byte, 8);
    v[i] = static_cast<std::uint32_t>((w >> (bit & 7)) & mask);
  }
  for (; i < n; ++i) {  // tail, byte by byte
    std::size_t bit = i * bits;
    std::uint64_t w = 0;
    for (std::size_t k = 0; k < 5 && (bit >> 3) + k < total; ++k)
      w |= static_cast<std::uint64_t>(std::to_integer<std::uint8_t>(in[(bit >> 3) + k])) << (8 * k);
    v[i] = static_cast<std::uint32_t>((w >> (bit & 7)) & mask);
  }
}

class Reader {
 public:
  Reader(std::span<const std::byte> s, const char* codec) : p_(s.data()), end_(s.data() + s.size()), codec_(codec) {}
  const std::byte* take(std::size_t bytes) {
    if (static_cast<std::size_t>(end_ - p_) < bytes)
      throw UsageError(std::string("ferry-comm codec ") + codec_ + ": truncated or corrupt stream");
    const std::byte* at = p_;
    p_ += bytes;
    return at;
  }
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  const std::byte* pos() const { return p_; }

 private:
  const std::byte* p_;
  const std::byte* end_;
  const char* codec_;
};

template <class T>
std::byte* put(std::byte* out, T v) {
  std::memcpy(out, &v, sizeof v);
  return out + sizeof v;
}

inline void check_count(std::uint64_t stored, std::size_t expected, const char* codec) {
  if (stored != expected)
    throw UsageError(std::string("ferry-comm codec ") + codec + ": stream holds " + std::to_string(stored) +
                     " elements, caller expects " + std::to_string(expected));
}

}  // namespace ferry::comm::codec_detail
