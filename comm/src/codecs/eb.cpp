// Error-bounded codec, SZx-style. Per block: base = midpoint of the block's range, then every
// element becomes q = round((x - base) / 2e), zigzag-coded and bit-packed at the block's width;
// a block whose range is within 2e needs zero bits (block-constant). The compressor recomputes
// each reconstruction exactly as the decompressor will and stores the block raw if any element
// would miss the bound (or if it holds NaN/Inf), so |y - x| <= e holds for every element, not
// on average. Optionally the whole stream is entropy-coded with zstd.
#include <zstd.h>

#include <cmath>
#include <vector>

#include "bitpack.hpp"
#include "codecs.hpp"

namespace ferry::comm::codec_detail {
namespace {

class ErrorBoundedCodec final : public Codec {
 public:
  ErrorBoundedCodec(double abs, double rel, std::size_t block, int zstd_level)
      : abs_(abs), rel_(rel), block_(block), zstd_(zstd_level) {}
  std::string name() const override {
    std::string s = abs_ > 0 ? "eb:abs=" + fmt(abs_) : "eb:rel=" + fmt(rel_);
    if (zstd_ > 0) s += ",zstd=" + std::to_string(zstd_);
    return s;
  }
  std::size_t max_compressed_bytes(std::size_t n) const override {
    std::size_t stream = stream_bound(n);
    return wire::eb_header_bytes + (zstd_ > 0 ? ZSTD_compressBound(stream) : stream);
  }
  std::size_t compress(std::span<const float> in, std::span<std::byte> out) override {
    double e = abs_ > 0 ? abs_ : rel_ * max_finite_abs(in);
    if (!(e > 0)) e = wire::bound_floor;
    std::byte* p = out.data();
    p = put<std::uint8_t>(p, zstd_ > 0 ? wire::eb_flag_zstd : 0);
    p = put<std::uint64_t>(p, in.size());
    p = put<double>(p, e);
    if (zstd_ > 0) {
      stream_.resize(stream_bound(in.size()));
      std::size_t n = encode(in, e, stream_.data());
      std::size_t cap = out.size() - static_cast<std::size_t>(p - out.data());
      std::size_t z = ZSTD_compress(p, cap, stream_.data(), n, zstd_);
      if (ZSTD_isError(z)) throw UsageError(std::string("ferry-comm codec eb: zstd: ") + ZSTD_getErrorName(z));
      return static_cast<std::size_t>(p - out.data()) + z;
    }
    return static_cast<std::size_t>(p - out.data()) + encode(in, e, p);
  }
  void decompress(std::span<const std::byte> in, std::span<float> out) override {
    Reader r(in, "eb");
    auto flags = r.get<std::uint8_t>();
    check_count(r.get<std::uint64_t>(), out.size(), "eb");
    double e = r.get<double>();
    if (flags & wire::eb_flag_zstd) {
      stream_.resize(stream_bound(out.size()));
      std::size_t n = ZSTD_decompress(stream_.data(), stream_.size(), r.pos(), r.left());
      if (ZSTD_isError(n)) throw UsageError(std::string("ferry-comm codec eb: zstd: ") + ZSTD_getErrorName(n));
      decode({stream_.data(), n}, e, out);
    } else {
      decode({r.pos(), r.left()}, e, out);
    }
  }
  ErrorModel error_model() const override {
    ErrorModel m;
    m.kind = ErrorModel::Kind::absolute;
    m.u = abs_;
    m.rel_of_max = abs_ > 0 ? 0.0 : rel_;
    return m;
  }

 private:
  static std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
  }
  std::size_t stream_bound(std::size_t n) const { return wire::block_count(n, block_) * 5 + 4 * n; }

  // Float arithmetic so the loops vectorize; the guarantee does not rest on it: every element's
  // reconstruction is recomputed exactly as decode() does and checked against e in double.
  std::size_t encode(std::span<const float> in, double e, std::byte* out) {
    const float step = static_cast<float>(2 * e), inv = 1.0f / step;
    std::byte* p = out;
    u_.resize(block_);
    for (std::size_t b0 = 0; b0 < in.size(); b0 += block_) {
      std::size_t len = std::min(block_, in.size() - b0);
      const float* x = in.data() + b0;
      float mn = x[0], mx = x[0];
      for (std::size_t i = 1; i < len; ++i) {
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
      }
      // NaN compares false everywhere, so check finiteness of the range and of every element below.
      bool ok = std::isfinite(mn) && std::isfinite(mx) && step > 0 && std::isfinite(inv) &&
                (static_cast<double>(mx) - mn) * inv < wire::eb_max_steps;  // |q| < 2^22 for round_even(float)
      const float base = static_cast<float>(0.5 * (static_cast<double>(mn) + mx));
      std::uint32_t any = 0;
      int misses = 0;
      if (ok) {
        for (std::size_t i = 0; i < len; ++i) {
          auto q = static_cast<std::int32_t>(round_even((x[i] - base) * inv));
          float y = base + static_cast<float>(q) * step;  // exactly as decode
          misses += !(std::fabs(static_cast<double>(y) - static_cast<double>(x[i])) <= e);
          auto z = wire::zigzag(q);
          u_[i] = z;
          any |= z;
        }
        ok = misses == 0;
      }
      if (!ok) {
        p = put<std::uint8_t>(p, wire::eb_raw_width);
        std::memcpy(p, x, len * 4);
        p += len * 4;
        continue;
      }
      auto bits = static_cast<unsigned>(std::bit_width(any));
      p = put<std::uint8_t>(p, static_cast<std::uint8_t>(bits));
      p = put<float>(p, base);
      p = pack_bits(u_.data(), len, bits, p);
    }
    return static_cast<std::size_t>(p - out);
  }

  void decode(std::span<const std::byte> s, double e, std::span<float> out) {
    const float step = static_cast<float>(2 * e);
    Reader r(s, "eb");
    u_.resize(block_);
    for (std::size_t b0 = 0; b0 < out.size(); b0 += block_) {
      std::size_t len = std::min(block_, out.size() - b0);
      float* y = out.data() + b0;
      auto bits = r.get<std::uint8_t>();
      if (bits == wire::eb_raw_width) {
        std::memcpy(y, r.take(len * 4), len * 4);
        continue;
      }
      if (bits > 32) throw UsageError("ferry-comm codec eb: corrupt stream");
      const float base = r.get<float>();
      unpack_bits(r.take(packed_bytes(len, bits)), len, bits, u_.data());
      for (std::size_t i = 0; i < len; ++i) {
        auto q = wire::unzigzag(u_[i]);
        y[i] = base + static_cast<float>(q) * step;
      }
    }
  }

  double abs_, rel_;
  std::size_t block_;
  int zstd_;
  std::vector<std::uint32_t> u_;
  std::vector<std::byte> stream_;
};

}  // namespace

std::unique_ptr<Codec> make_eb(double abs, double rel, std::size_t block, int zstd_level) {
  return std::make_unique<ErrorBoundedCodec>(abs, rel, block == 0 ? wire::eb_default_block : block, zstd_level);
}

}  // namespace ferry::comm::codec_detail
