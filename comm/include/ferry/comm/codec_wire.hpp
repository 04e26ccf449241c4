// The byte formats of the codec streams, shared by the CPU codecs (comm/src/codecs) and the GPU
// codecs (comm/cuda/codecs). A stream one side writes in a shared format the other side reads, so
// every constant and layout function here is part of the format: change one and streams written
// before no longer decode. All fields are little-endian; "packed" means fixed-width values, LSB
// first, in packed_bytes(len, bits) bytes (the CPU's bitpack.hpp, the GPU's packing kernels).
//
//   intN (int8/int4/int2; CPU codecs/intq.cpp, GPU int8 cuda/codecs/intq8.cu: the same bytes)
//     u64 n | per codec block of B elements (the last one shorter):
//       u32 tag | payload      tag = float scale s:        packed (q + qmax), bits = N
//                              tag = intq_raw_tag (a NaN): len raw float32
//
//   eb, sequential (CPU codecs/eb.cpp)
//     u8 flags (eb_flag_zstd) | u64 n | f64 e | block stream, zstd-compressed when flagged:
//       per codec block: u8 width | width == eb_raw_width: len raw float32
//                                 | otherwise:            f32 base | packed zigzag(q), bits = width
//
//   eb, planar (GPU only, cuda/codecs/eb.cu; the CPU decoder does not read it)
//     u8 eb_planar_tag | u64 n | f64 e | u32 block | u32 nblocks | u8 width[nblocks] | pad to 4 |
//     f32 base[nblocks] | payloads (the same per-block payloads as the sequential stream, back to back)
//
// Both eb layouts make the same decisions: y = base + q * float(2e), q = round_even((x - base) / 2e),
// base = float((min + max) / 2), and a block is stored raw when it holds NaN/Inf, its range spans
// eb_max_steps steps or more, or one element would miss the bound.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define FERRY_COMM_HOST_DEVICE __host__ __device__
#else
#define FERRY_COMM_HOST_DEVICE
#endif

namespace ferry::comm::wire {

// ---- shared arithmetic -------------------------------------------------------------------------
// The smallest normal float (2^-126): a scale below it makes an intN block raw, and a bound that is
// not positive (rel * max|x| with no non-zero finite element) becomes it.
inline constexpr float float_min = 0x1p-126f;
inline constexpr double bound_floor = 0x1p-126;
// Round to nearest even by adding and subtracting 1.5 * 2^23 (valid for |v| < 2^22): both sides
// compute quantized values this way, without FMA contraction, so that they agree bit for bit.
inline constexpr float round_even_magic = 12582912.0f;

// In the type of n (std::size_t or unsigned), so that kernels keep their 32-bit arithmetic.
template <class N>
FERRY_COMM_HOST_DEVICE constexpr N packed_bytes(N n, unsigned bits) {
  return (n * bits + 7) / 8;
}
FERRY_COMM_HOST_DEVICE constexpr std::size_t block_count(std::size_t n, std::size_t block) {
  return (n + block - 1) / block;
}
FERRY_COMM_HOST_DEVICE constexpr std::uint32_t zigzag(std::int32_t q) {
  return static_cast<std::uint32_t>((q << 1) ^ (q >> 31));
}
FERRY_COMM_HOST_DEVICE constexpr std::int32_t unzigzag(std::uint32_t z) {
  return static_cast<std::int32_t>(z >> 1) ^ -static_cast<std::int32_t>(z & 1);
}

// ---- intN ----------------------------------------------------------------------------------------
inline constexpr std::size_t intq_header_bytes = 8;         // u64 n
inline constexpr std::size_t intq_tag_bytes = 4;            // u32 per codec block
inline constexpr std::uint32_t intq_raw_tag = 0x7FC00001u;  // a NaN scale: the block's floats follow raw
inline constexpr std::size_t intq_default_block = 64;

FERRY_COMM_HOST_DEVICE constexpr int intq_qmax(int bits) { return (1 << (bits - 1)) - 1; }
// Worst case: every block raw.
FERRY_COMM_HOST_DEVICE constexpr std::size_t intq_max_bytes(std::size_t n, std::size_t block) {
  return intq_header_bytes + block_count(n, block) * intq_tag_bytes + 4 * n;
}

// ---- eb (both layouts) ------------------------------------------------------------------------
inline constexpr std::uint8_t eb_raw_width = 255;  // width byte of a raw block
inline constexpr std::size_t eb_default_block = 128;
// A block whose range spans this many quantization steps or more is stored raw (keeps |q| < 2^22,
// the range of round_even).
inline constexpr double eb_max_steps = 4.0e6;

// Sequential layout.
inline constexpr std::uint8_t eb_flag_zstd = 1;
inline constexpr std::size_t eb_header_bytes = 1 + 8 + 8;  // flags | n | e

// Planar layout: where its fields start.
inline constexpr std::uint8_t eb_planar_tag = 2;
inline constexpr std::size_t eb_planar_n_at = 1, eb_planar_e_at = 9, eb_planar_block_at = 17, eb_planar_nblocks_at = 21,
                             eb_planar_header_bytes = 25;

struct EbPlanarLayout {
  std::size_t nblocks;     // codec blocks
  std::size_t widths_at;   // u8 width[nblocks]
  std::size_t bases_at;    // f32 base[nblocks], 4-byte aligned
  std::size_t payload_at;  // the payloads, back to back
};
FERRY_COMM_HOST_DEVICE constexpr EbPlanarLayout eb_planar_layout(std::size_t n, std::size_t block) {
  EbPlanarLayout L{};
  L.nblocks = block_count(n, block);
  L.widths_at = eb_planar_header_bytes;
  L.bases_at = (L.widths_at + L.nblocks + 3) & ~std::size_t{3};
  L.payload_at = L.bases_at + 4 * L.nblocks;
  return L;
}
// Worst case: every block raw.
FERRY_COMM_HOST_DEVICE constexpr std::size_t eb_planar_max_bytes(std::size_t n, std::size_t block) {
  return eb_planar_layout(n, block).payload_at + 4 * n;
}

}  // namespace ferry::comm::wire
