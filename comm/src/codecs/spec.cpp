// Codec specs ("int4:block=32", "eb:rel=1e-3,zstd=1"), the factory, and error feedback.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codecs.hpp"
#include "ferry/comm/types.hpp"

namespace ferry::comm {

namespace {

[[noreturn]] void bad(std::string_view text, std::string_view why) {
  throw UsageError(
      fmt::format("ferry-comm codec spec '{}': {} (examples: none bf16 fp16 int8 int4:block=32 int2 "
                  "eb:abs=1e-3 eb:rel=1e-3,zstd=1 zfp:tol=1e-3 zfp:rel=1e-4)",
                  text, why));
}

double number(std::string_view text, std::string_view v) {
  std::string s(v);
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(d >= 0) || std::isinf(d))
    bad(text, fmt::format("bad number '{}'", v));
  return d;
}

}  // namespace

CodecSpec CodecSpec::parse(std::string_view text) {
  CodecSpec s;
  auto colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  std::string_view params = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
  if (name == "none" || name.empty()) s.kind = Kind::none;
  else if (name == "bf16") s.kind = Kind::bf16;
  else if (name == "fp16") s.kind = Kind::fp16;
  else if (name == "int8" || name == "int4" || name == "int2") {
    s.kind = Kind::intq;
    s.bits = name[3] - '0';
  } else if (name == "eb") s.kind = Kind::eb;
  else if (name == "zfp") s.kind = Kind::zfp;
  else bad(text, fmt::format("unknown codec '{}'", name));
  while (!params.empty()) {
    auto comma = params.find(',');
    std::string_view kv = params.substr(0, comma);
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 1);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) bad(text, fmt::format("'{}' is not key=value", kv));
    std::string_view k = kv.substr(0, eq), v = kv.substr(eq + 1);
    double d = number(text, v);
    if (k == "block" && (s.kind == Kind::intq || s.kind == Kind::eb) && d >= 1 && d <= (1 << 20))
      s.block = static_cast<std::size_t>(d);
    else if ((k == "abs" && s.kind == Kind::eb) || (k == "tol" && s.kind == Kind::zfp)) s.abs = d;
    else if (k == "rel" && s.bounded_by_value()) s.rel = d;
    else if (k == "zstd" && s.kind == Kind::eb && d <= 22) s.zstd_level = static_cast<int>(d);
    else bad(text, fmt::format("parameter '{}' does not apply or is out of range", kv));
  }
  if (s.bounded_by_value() && !(s.abs > 0) && !(s.rel > 0)) bad(text, "needs a positive abs/tol or rel bound");
  if (s.abs > 0 && s.rel > 0) bad(text, "give either an absolute or a relative bound, not both");
  return s;
}

std::string CodecSpec::str() const {
  switch (kind) {
    case Kind::none: return "none";
    case Kind::bf16: return "bf16";
    case Kind::fp16: return "fp16";
    case Kind::intq: return fmt::format("int{}{}", bits, block ? fmt::format(":block={}", block) : "");
    case Kind::eb:
      return fmt::format("eb:{}={:g}{}{}", abs > 0 ? "abs" : "rel", abs > 0 ? abs : rel,
                         block ? fmt::format(",block={}", block) : "",
                         zstd_level ? fmt::format(",zstd={}", zstd_level) : "");
    case Kind::zfp: return fmt::format("zfp:{}={:g}", abs > 0 ? "tol" : "rel", abs > 0 ? abs : rel);
  }
  return "?";
}

namespace {
class IdentityCodec final : public Codec {
 public:
  std::string name() const override { return "none"; }
  std::size_t max_compressed_bytes(std::size_t n) const override { return 4 * n; }
  std::size_t compress(std::span<const float> in, std::span<std::byte> out) override {
    if (!in.empty()) std::memcpy(out.data(), in.data(), 4 * in.size());
    return 4 * in.size();
  }
  void decompress(std::span<const std::byte> in, std::span<float> out) override {
    if (in.size() != 4 * out.size()) throw UsageError("ferry-comm codec none: size mismatch");
    if (!out.empty()) std::memcpy(out.data(), in.data(), in.size());
  }
  ErrorModel error_model() const override { return {}; }
};
}  // namespace

std::unique_ptr<Codec> make_codec(const CodecSpec& spec, double abs_bound) {
  using namespace codec_detail;
  switch (spec.kind) {
    case CodecSpec::Kind::none: return std::make_unique<IdentityCodec>();
    case CodecSpec::Kind::bf16: return make_cast(true);
    case CodecSpec::Kind::fp16: return make_cast(false);
    case CodecSpec::Kind::intq: return make_intq(spec.bits, spec.block);
    case CodecSpec::Kind::eb:
      return abs_bound > 0 ? make_eb(abs_bound, 0, spec.block, spec.zstd_level)
                           : make_eb(spec.abs, spec.rel, spec.block, spec.zstd_level);
    case CodecSpec::Kind::zfp: return abs_bound > 0 ? make_zfp(abs_bound, 0) : make_zfp(spec.abs, spec.rel);
  }
  throw UsageError("ferry-comm: unknown codec kind");
}

void apply_error_feedback(Codec& codec, std::span<float> x, std::span<float> residual) {
  if (x.size() != residual.size())
    throw UsageError(
        fmt::format("ferry-comm error feedback: residual has {} elements, data {}", residual.size(), x.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::isfinite(residual[i])) x[i] += residual[i];
  std::vector<std::byte> buf(codec.max_compressed_bytes(x.size()));
  std::size_t n = codec.compress(x, buf);
  std::vector<float> y(x.size());
  codec.decompress({buf.data(), n}, y);
  for (std::size_t i = 0; i < x.size(); ++i) {
    float r = x[i] - y[i];
    residual[i] = std::isfinite(r) ? r : 0.0f;  // a NaN/Inf input must not poison later steps
    x[i] = y[i];
  }
}

}  // namespace ferry::comm
