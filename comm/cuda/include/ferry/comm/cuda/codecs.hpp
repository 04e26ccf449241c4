// ferry-comm GPU codecs: int8 block quantization (with fused error feedback) and the error-bounded
// codec, on device buffers, plus host staging of device buffers for the MPI collectives.
// The stream formats are written down once, in ferry/comm/codec_wire.hpp:
//   int8: the stream is byte-identical to the CPU codec's (codecs/intq.cpp, block B): a GPU rank
//         and a CPU rank can exchange it. Decoding finds block offsets in parallel assuming no raw
//         (NaN/Inf) block and walks serially only from the first raw block on.
//   eb:   the same reconstruction as the CPU codec (codecs/eb.cpp: same base, q, raw decisions, so
//         decoded values are bit-identical and |y - x| <= e holds element by element), in the planar
//         layout (widths and bases first, payloads after) so that decoding needs one scan instead
//         of a serial walk.
// One file per codec under comm/cuda/codecs/ (intq8.cu, eb.cu), their shared device helpers in
// codecs/common.cuh.
// Every function takes device pointers and a stream, and returns after the stream work is queued,
// except the compressors, which synchronize once to return the compressed size.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ferry::comm::cuda {

// What each piece of a Workspace's scratch holds. A call uses each slot for one thing at a time;
// two slots a call needs at once are different slots.
enum class Slot : int {
  block_tags,     // int8 general path: u32 tag (scale or raw) per codec block
  block_sizes,    // u64 stream or payload bytes per codec block (general paths, int8 raw rebuild)
  block_offsets,  // u64 exclusive prefix of block_sizes
  flag,           // a few bytes the kernels report through: raw seen, first raw block, max |x|
  eb_bound,       // eb fast path: the bound and its step, computed on the device (EbDev)
  scan_temp,      // CUB's temporary storage for the exclusive scan of block_sizes
  staging,        // a copy of a stream: int8's fast layout during the raw rebuild, eb's aligned copy
  look_back,      // eb fast paths: tile counter, per-tile look-back state, total size, overrun flag
  count
};

// Scratch reused across calls (grown on demand, freed by the destructor).
class Workspace {
 public:
  Workspace() = default;
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  void* get(Slot slot, std::size_t bytes);  // device scratch of at least `bytes`
 private:
  static constexpr int slots = static_cast<int>(Slot::count);
  void* ptr_[slots] = {};
  std::size_t size_[slots] = {};
};

std::size_t intq8_max_bytes(std::size_t n, std::size_t block = 64);  // wire::intq_max_bytes
// Compresses x[0..n) to out (device, >= intq8_max_bytes). With residual != nullptr, error
// feedback as apply_error_feedback: x' = x + r (finite r), compress x', r = x' - y, x = y (so x
// is written). Returns the stream size in bytes. update_x = false (with a residual): the caller
// no longer needs x, so y is not written back where it need not be (x is then unspecified; the
// stream and the residual are the same) — 4 of the 17 bytes per element error feedback moves.
std::size_t intq8_compress(float* x, float* residual, std::size_t n, std::size_t block, std::byte* out,
                           std::size_t out_bytes, Workspace& ws, cudaStream_t stream, bool update_x = true);
void intq8_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, std::size_t block,
                      Workspace& ws, cudaStream_t stream);

std::size_t eb_max_bytes(std::size_t n, std::size_t block = 128);
// abs > 0: absolute bound; else rel * max finite |x| (computed on the device).
std::size_t eb_compress(const float* x, std::size_t n, double abs, double rel, std::size_t block, std::byte* out,
                        std::size_t out_bytes, Workspace& ws, cudaStream_t stream);
void eb_decompress(const std::byte* in, std::size_t in_bytes, float* y, std::size_t n, Workspace& ws,
                   cudaStream_t stream);

// The compressors and decompressors take fast paths for the common shapes (int8 block 16, 32, 64
// or 128 and eb block 128, float buffers 16-byte aligned, streams 4-byte aligned) and general
// kernels otherwise; both write the same bytes. false forces the general kernels (tests, benchmarks).
void set_fast_paths(bool enabled);

// Shape of the fast kernels (benchmark sweeps; the defaults are the measured best on the H200,
// bench/results/gpu-h200-*.md). int8: codec blocks per lane group (1 or 2); eb: codec blocks per
// warp of a look-back tile (1, 2, 4 or 8; a tile is 8 warps).
struct Tuning {
  int int8_compress_units = 1, int8_decode_units = 2;
  int eb_compress_blocks_per_warp = 4, eb_decode_blocks_per_warp = 8;
};
void set_tuning(const Tuning& t);
Tuning tuning();

// Helpers of the device collectives (queued on `stream`, no synchronization unless stated):
// the largest finite |x| (synchronizes; 0 for n = 0 or no finite element), acc += x, and error-
// feedback absorption x = x + r (finite r, x not NaN; as the codecs' ef input), r = 0.
float max_finite_abs(const float* x, std::size_t n, Workspace& ws, cudaStream_t stream);
void add_into(float* acc, const float* x, std::size_t n, cudaStream_t stream);
void absorb_residual(float* x, float* r, std::size_t n, cudaStream_t stream);

// Throws std::runtime_error naming the call on a CUDA error.
void check(cudaError_t e, const char* what);

}  // namespace ferry::comm::cuda
