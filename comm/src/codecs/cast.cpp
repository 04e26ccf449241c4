// bf16 / fp16 casting codecs: 2 bytes per element, round to nearest even.
// Error: relative 2^-8 (bf16) or 2^-11 (fp16) for values in the normal range of the format;
// fp16 values below 2^-14 have absolute error <= 2^-25; |x| >= 65520 overflows fp16 to +-Inf
// (documented, so a caller with large values uses bf16).
#include <bit>
#include <cmath>
#include <vector>

#include "bitpack.hpp"
#include "codecs.hpp"

namespace ferry::comm::codec_detail {
namespace {

class CastCodec final : public Codec {
 public:
  explicit CastCodec(bool bf16) : bf16_(bf16) {}
  std::string name() const override { return bf16_ ? "bf16" : "fp16"; }
  std::size_t max_compressed_bytes(std::size_t n) const override { return 8 + 2 * n; }
  std::size_t compress(std::span<const float> in, std::span<std::byte> out) override {
    std::byte* p = put<std::uint64_t>(out.data(), in.size());
    const float* x = in.data();
    const std::size_t n = in.size();
    if (bf16_) {
      for (std::size_t i = 0; i < n; ++i) {  // branch-free so it vectorizes; NaN kept quiet
        std::uint32_t b = std::bit_cast<std::uint32_t>(x[i]);
        std::uint32_t rounded = (b + 0x7FFFu + ((b >> 16) & 1u)) >> 16;
        std::uint32_t nan = (b >> 16) | 0x40u;
        std::uint16_t h = static_cast<std::uint16_t>((b & 0x7FFFFFFFu) > 0x7F800000u ? nan : rounded);
        std::memcpy(p + 2 * i, &h, 2);
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h = float_to_f16(x[i]);
        std::memcpy(p + 2 * i, &h, 2);
      }
    }
    return 8 + 2 * n;
  }
  void decompress(std::span<const std::byte> in, std::span<float> out) override {
    Reader r(in, bf16_ ? "bf16" : "fp16");
    check_count(r.get<std::uint64_t>(), out.size(), "cast");
    const std::byte* p = r.take(2 * out.size());
    float* y = out.data();
    const std::size_t n = out.size();
    if (bf16_) {
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        y[i] = std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, p + 2 * i, 2);
        y[i] = f16_to_float(h);
      }
    }
  }
  ErrorModel error_model() const override {
    ErrorModel m;
    m.kind = ErrorModel::Kind::relative;
    m.u = bf16_ ? 1.0 / 256 : 1.0 / 2048;                                // 2^-p with p = 8 and 11 significant bits
    m.abs_floor = bf16_ ? std::ldexp(1.0, -134) : std::ldexp(1.0, -25);  // half the subnormal step
    return m;
  }

 private:
  bool bf16_;
};

}  // namespace

std::unique_ptr<Codec> make_cast(bool bf16) { return std::make_unique<CastCodec>(bf16); }

}  // namespace ferry::comm::codec_detail
