// Helpers of the emulator tests: 16-bit host buffers (fp16 through the emulator's software
// conversions, bf16 by rounding to nearest even, as Pair16<bf16> does on the device).
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "cuda_emu.h"
#include "llama_ops/portable.cuh"

namespace ktest {

inline unsigned short to_bits(float f, const __half*) { return __float2half_rn(f).x; }
inline unsigned short to_bits(float f, const llama_ops::bf16*) {
  return (unsigned short)llama_ops::Pair16<llama_ops::bf16>::bits(f);
}
inline float from_bits(unsigned short b, const __half*) { return __half2float(__half{b}); }
inline float from_bits(unsigned short b, const llama_ops::bf16*) { return __uint_as_float((unsigned)b << 16); }

template <class T>
class Buffer16 {
 public:
  explicit Buffer16(size_t n) : bits_(n, 0) {}
  size_t size() const { return bits_.size(); }
  void* data() { return bits_.data(); }
  void set(size_t i, float v) { bits_[i] = to_bits(v, static_cast<const T*>(nullptr)); }
  double get(size_t i) const { return from_bits(bits_[i], static_cast<const T*>(nullptr)); }
  const std::vector<unsigned short>& bits() const { return bits_; }
  void set_bits(const std::vector<unsigned short>& b) { bits_ = b; }

 private:
  std::vector<unsigned short> bits_;
};

}  // namespace ktest
