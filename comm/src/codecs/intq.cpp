// Block quantization to 8, 4 or 2 bits: per block of `block` elements one float scale
// s = max|x| / qmax and q = round(x / s) in [-qmax, qmax], stored as q + qmax in `bits` bits.
// Blocks holding NaN/Inf, or whose scale would be subnormal, are stored raw (exact).
// Error per element <= s/2 plus float rounding: max|x_block| / (2 qmax) * (1 + 2^-14).
#include <cmath>
#include <vector>

#include "bitpack.hpp"
#include "codecs.hpp"

namespace ferry::comm::codec_detail {
namespace {

class IntQuantCodec final : public Codec {
 public:
  IntQuantCodec(int bits, std::size_t block)
      : bits_(static_cast<unsigned>(bits)), qmax_(wire::intq_qmax(bits)), block_(block) {}
  std::string name() const override { return "int" + std::to_string(bits_) + ":block=" + std::to_string(block_); }
  std::size_t max_compressed_bytes(std::size_t n) const override { return wire::intq_max_bytes(n, block_); }
  std::size_t compress(std::span<const float> in, std::span<std::byte> out) override {
    std::byte* p = put<std::uint64_t>(out.data(), in.size());
    q_.resize(block_);
    for (std::size_t b0 = 0; b0 < in.size(); b0 += block_) {
      std::size_t len = std::min(block_, in.size() - b0);
      const float* x = in.data() + b0;
      float m = 0;
      bool finite = true;
      for (std::size_t i = 0; i < len; ++i) {
        float a = std::fabs(x[i]);
        finite &= std::isfinite(a);
        m = a > m ? a : m;
      }
      float scale = m / static_cast<float>(qmax_);
      if (!finite || (m > 0 && !std::isnormal(scale))) {
        p = put<std::uint32_t>(p, wire::intq_raw_tag);
        std::memcpy(p, x, len * 4);
        p += len * 4;
        continue;
      }
      p = put<float>(p, scale);
      const float inv = m > 0 ? 1.0f / scale : 0.0f;
      const int qmax = qmax_;
      for (std::size_t i = 0; i < len; ++i) {
        int q = static_cast<int>(round_even(x[i] * inv));
        q = q > qmax ? qmax : (q < -qmax ? -qmax : q);
        q_[i] = static_cast<std::uint32_t>(q + qmax);
      }
      p = pack_bits(q_.data(), len, bits_, p);
    }
    return static_cast<std::size_t>(p - out.data());
  }
  void decompress(std::span<const std::byte> in, std::span<float> out) override {
    Reader r(in, "intq");
    check_count(r.get<std::uint64_t>(), out.size(), "intq");
    q_.resize(block_);
    for (std::size_t b0 = 0; b0 < out.size(); b0 += block_) {
      std::size_t len = std::min(block_, out.size() - b0);
      std::uint32_t tag = r.get<std::uint32_t>();
      float* y = out.data() + b0;
      if (tag == wire::intq_raw_tag) {
        std::memcpy(y, r.take(len * 4), len * 4);
        continue;
      }
      float scale = std::bit_cast<float>(tag);
      unpack_bits(r.take(packed_bytes(len, bits_)), len, bits_, q_.data());
      for (std::size_t i = 0; i < len; ++i) y[i] = static_cast<float>(static_cast<int>(q_[i]) - qmax_) * scale;
    }
  }
  ErrorModel error_model() const override {
    ErrorModel m;
    m.kind = ErrorModel::Kind::block_relative;
    m.qmax = qmax_;
    m.block = block_;
    return m;
  }

 private:
  unsigned bits_;
  int qmax_;
  std::size_t block_;
  std::vector<std::uint32_t> q_;
};

}  // namespace

std::unique_ptr<Codec> make_intq(int bits, std::size_t block) {
  return std::make_unique<IntQuantCodec>(bits, block == 0 ? wire::intq_default_block : block);
}

}  // namespace ferry::comm::codec_detail
