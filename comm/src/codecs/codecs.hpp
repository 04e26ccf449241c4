// Internal: constructors of the concrete codecs, one file each.
#pragma once

#include <memory>

#include "ferry/comm/codec.hpp"

namespace ferry::comm::codec_detail {

std::unique_ptr<Codec> make_cast(bool bf16);
std::unique_ptr<Codec> make_intq(int bits, std::size_t block);
std::unique_ptr<Codec> make_eb(double abs, double rel, std::size_t block, int zstd_level);
std::unique_ptr<Codec> make_zfp(double tol, double rel);

// Largest finite |x| (0 for none); used by the relative bounds.
double max_finite_abs(std::span<const float> x);

}  // namespace ferry::comm::codec_detail
