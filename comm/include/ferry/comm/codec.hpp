// Compression codecs for float32 data, behind one interface.
// A codec turns n floats into at most max_compressed_bytes(n) bytes and back; the error model
// says how far a decompressed element may be from the original, per element:
//   exact            identical bits
//   relative         |y - x| <= u * |x| for |x| >= normal_min, else <= abs_floor   (bf16, fp16)
//   block_relative   |y - x| <= max|x over its block| / (2 * qmax) * (1 + 2^-14)   (intN)
//   absolute         |y - x| <= u + rel_of_max * max finite |x| of the buffer       (eb, zfp)
// NaN and +-Inf survive every codec unchanged, denormals follow the bound, n = 0 is valid.
// Specs are strings: "none", "bf16", "fp16", "int8", "int4:block=32", "int2",
// "eb:abs=1e-3", "eb:rel=1e-3,zstd=1", "zfp:tol=1e-3", "zfp:rel=1e-4".
// rel = relative to the largest finite |x|; in a compressed allreduce, abs/tol/rel are the
// end-to-end bound of the result and the algorithm divides it over its compressions.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace ferry::comm {

struct ErrorModel {
  enum class Kind { exact, relative, block_relative, absolute } kind = Kind::exact;
  double u = 0.0;           // relative: unit roundoff; absolute: the bound
  double rel_of_max = 0.0;  // absolute: plus this times the buffer's largest finite |x|
  double abs_floor = 0.0;   // relative: bound below the smallest normal of the target format
  int qmax = 0;             // block_relative: largest quantization level
  std::size_t block = 0;    // block_relative: elements per block
};

struct CodecSpec {
  enum class Kind { none, bf16, fp16, intq, eb, zfp } kind = Kind::none;
  int bits = 8;           // intq: 8, 4 or 2
  std::size_t block = 0;  // intq/eb: elements per block, 0 = codec default
  double abs = 0.0;       // eb/zfp: absolute bound (0 = unset)
  double rel = 0.0;       // eb/zfp: bound relative to max finite |x| (0 = unset)
  int zstd_level = 0;     // eb: entropy-code the packed stream with zstd at this level (0 = off)

  static CodecSpec parse(std::string_view text);  // throws UsageError
  std::string str() const;
  bool lossy() const { return kind != Kind::none; }
  bool bounded_by_value() const { return kind == Kind::eb || kind == Kind::zfp; }
};

class Codec {
 public:
  virtual ~Codec() = default;
  virtual std::string name() const = 0;
  virtual std::size_t max_compressed_bytes(std::size_t n) const = 0;
  // Returns the number of bytes written to out (out.size() >= max_compressed_bytes(in.size())).
  virtual std::size_t compress(std::span<const float> in, std::span<std::byte> out) = 0;
  // out.size() must equal the n that was compressed; throws UsageError on a corrupt stream.
  virtual void decompress(std::span<const std::byte> in, std::span<float> out) = 0;
  virtual ErrorModel error_model() const = 0;
};

// abs_bound > 0 overrides the spec's abs/rel with an absolute per-compression bound
// (used by the compressed collectives once they know the data scale).
std::unique_ptr<Codec> make_codec(const CodecSpec& spec, double abs_bound = 0.0);

// Error feedback for lossy gradients (the caller keeps the residual between steps):
//   x' = x + residual;  y = decompress(compress(x'));  residual = x' - y;  x = y
// so what one step loses is added back to the next. residual.size() must equal x.size().
void apply_error_feedback(Codec& codec, std::span<float> x, std::span<float> residual);

}  // namespace ferry::comm
