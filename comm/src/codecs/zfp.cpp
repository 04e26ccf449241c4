// ZFP fixed-accuracy codec (Debian's libzfp). ZFP does not take NaN/Inf, and its accuracy mode
// bounds the error by the tolerance in practice but not by contract for every element, so this
// codec replaces non-finite values with 0, compresses, decompresses once to check, and keeps every
// element that is non-finite or misses the tolerance as an exact exception (index, value). If more
// than 1/16 of the elements would be exceptions the buffer is stored raw.
#include <zfp.h>

#include <cmath>
#include <limits>
#include <vector>

#include "bitpack.hpp"
#include "codecs.hpp"

namespace ferry::comm::codec_detail {
namespace {

enum : std::uint8_t { mode_zfp = 0, mode_raw = 1 };

class ZfpCodec final : public Codec {
 public:
  ZfpCodec(double tol, double rel) : tol_(tol), rel_(rel) {}
  std::string name() const override {
    char b[48];
    std::snprintf(b, sizeof b, tol_ > 0 ? "zfp:tol=%g" : "zfp:rel=%g", tol_ > 0 ? tol_ : rel_);
    return b;
  }
  std::size_t max_compressed_bytes(std::size_t n) const override {
    std::size_t header = 1 + 8 + 8 + 8 + 8;
    return header + std::max(zfp_bound(n) + (n / 16 + 1) * 8, 4 * n);
  }
  std::size_t compress(std::span<const float> in, std::span<std::byte> out) override {
    const std::size_t n = in.size();
    double tol = tol_ > 0 ? tol_ : rel_ * max_finite_abs(in);
    if (!(tol > 0)) tol = std::numeric_limits<float>::min();
    std::byte* p = out.data();
    auto raw = [&] {
      std::byte* q = put<std::uint8_t>(out.data(), mode_raw);
      q = put<std::uint64_t>(q, n);
      if (n) std::memcpy(q, in.data(), 4 * n);
      return static_cast<std::size_t>(q - out.data()) + 4 * n;
    };
    if (n == 0) return raw();
    clean_.assign(in.begin(), in.end());
    for (auto& v : clean_)
      if (!std::isfinite(v)) v = 0;
    std::size_t zbytes = run_zfp(tol, n, /*compress=*/true);
    if (zbytes == 0) return raw();
    // Check every element against what the decompressor will produce.
    check_.resize(n);
    run_zfp(tol, n, /*compress=*/false, check_.data());
    idx_.clear();
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite(in[i]) || !(std::fabs(static_cast<double>(check_[i]) - in[i]) <= tol)) {
        idx_.push_back(static_cast<std::uint32_t>(i));
        if (idx_.size() > n / 16) return raw();
      }
    if (1 + 8 + 8 + 8 + zbytes + 8 + 8 * idx_.size() > out.size()) return raw();
    p = put<std::uint8_t>(p, mode_zfp);
    p = put<std::uint64_t>(p, n);
    p = put<double>(p, tol);
    p = put<std::uint64_t>(p, zbytes);
    std::memcpy(p, words_.data(), zbytes);
    p += zbytes;
    p = put<std::uint64_t>(p, idx_.size());
    for (auto i : idx_) p = put<std::uint32_t>(p, i);
    for (auto i : idx_) p = put<float>(p, in[i]);
    return static_cast<std::size_t>(p - out.data());
  }
  void decompress(std::span<const std::byte> in, std::span<float> out) override {
    Reader r(in, "zfp");
    auto mode = r.get<std::uint8_t>();
    check_count(r.get<std::uint64_t>(), out.size(), "zfp");
    if (mode == mode_raw) {
      if (!out.empty()) std::memcpy(out.data(), r.take(4 * out.size()), 4 * out.size());
      return;
    }
    double tol = r.get<double>();
    auto zbytes = r.get<std::uint64_t>();
    const std::byte* z = r.take(zbytes);
    words_.assign((zbytes + 7) / 8, 0);
    std::memcpy(words_.data(), z, zbytes);
    run_zfp(tol, out.size(), /*compress=*/false, out.data());
    auto nexc = r.get<std::uint64_t>();
    const std::byte* idx = r.take(4 * nexc);
    const std::byte* val = r.take(4 * nexc);
    for (std::uint64_t k = 0; k < nexc; ++k) {
      std::uint32_t i;
      std::memcpy(&i, idx + 4 * k, 4);
      if (i >= out.size()) throw UsageError("ferry-comm codec zfp: corrupt exception list");
      std::memcpy(&out[i], val + 4 * k, 4);
    }
  }
  ErrorModel error_model() const override {
    ErrorModel m;
    m.kind = ErrorModel::Kind::absolute;
    m.u = tol_;
    m.rel_of_max = tol_ > 0 ? 0.0 : rel_;
    return m;
  }

 private:
  static std::size_t zfp_bound(std::size_t n) {
    if (n == 0) return 0;
    zfp_field* f = zfp_field_1d(nullptr, zfp_type_float, n);
    zfp_stream* zs = zfp_stream_open(nullptr);
    zfp_stream_set_reversible(zs);  // the largest of the modes
    std::size_t b = zfp_stream_maximum_size(zs, f);
    zfp_stream_close(zs);
    zfp_field_free(f);
    return b + 64;
  }
  // Compress clean_ into words_ (returns bytes) or decompress words_ into dst.
  std::size_t run_zfp(double tol, std::size_t n, bool compress, float* dst = nullptr) {
    zfp_field* f = zfp_field_1d(compress ? clean_.data() : dst, zfp_type_float, n);
    zfp_stream* zs = zfp_stream_open(nullptr);
    zfp_stream_set_accuracy(zs, tol);
    if (compress) words_.assign(zfp_stream_maximum_size(zs, f) / 8 + 1, 0);
    bitstream* bs = stream_open(words_.data(), words_.size() * 8);
    zfp_stream_set_bit_stream(zs, bs);
    zfp_stream_rewind(zs);
    std::size_t r = compress ? zfp_compress(zs, f) : zfp_decompress(zs, f);
    zfp_stream_close(zs);
    stream_close(bs);
    zfp_field_free(f);
    if (!compress && r == 0) throw UsageError("ferry-comm codec zfp: corrupt stream");
    return r;
  }

  double tol_, rel_;
  std::vector<float> clean_, check_;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> idx_;
};

}  // namespace

std::unique_ptr<Codec> make_zfp(double tol, double rel) { return std::make_unique<ZfpCodec>(tol, rel); }

}  // namespace ferry::comm::codec_detail
