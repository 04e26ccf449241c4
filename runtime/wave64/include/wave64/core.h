// wave64 CPU runtime, core: the GPU execution model on fibers.
//
// A kernel launch runs every block of the grid; a block runs one fiber per thread (lane) on one
// OS thread, lanes grouped in wavefronts of W64_WAVE_SIZE (64 by default, 32 for the CUDA
// comparison). Warp operations (shuffles, votes, wave barriers) are tile barriers over the lanes
// of one wavefront; __syncthreads is a barrier over the block. Blocks of one launch may run on
// several OS threads (W64_THREADS), each with its own fibers, stacks and __shared__ storage.
//
// Lanes that diverge before a warp operation are grouped by the call site of the operation: the
// lanes waiting at one site run it together with their mask as the active mask once no other lane
// of the wavefront can still arrive there (docs/wave64.md, "Divergence").
//
// This header is what the HIP and CUDA front headers (hip/hip_runtime.h, cuda_runtime.h) build
// on; user code never includes it directly.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef W64_WAVE_SIZE
#define W64_WAVE_SIZE 64
#endif
#if W64_WAVE_SIZE != 64 && W64_WAVE_SIZE != 32 && W64_WAVE_SIZE != 16
#error "wave64 runtime: W64_WAVE_SIZE must be 16, 32 or 64"
#endif

struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

namespace w64 {

// Where a warp operation is called: lanes at the same site (and operation) form one group.
struct Site {
  const char* file;
  unsigned line;
  unsigned col;
};
// The call site of a warp intrinsic, from its default arguments. GCC evaluates __builtin_LINE()
// at the caller only when it is the default argument itself (not inside an initializer), and
// GCC before 13 has no __builtin_COLUMN: sites are file and line there.
#if defined(__has_builtin)
#if __has_builtin(__builtin_COLUMN)
#define W64_BUILTIN_COLUMN() __builtin_COLUMN()
#endif
#endif
#ifndef W64_BUILTIN_COLUMN
#define W64_BUILTIN_COLUMN() 0u
#endif
#define W64_SITE_PARAM \
  const char *w64_file = __builtin_FILE(), unsigned w64_line = __builtin_LINE(), unsigned w64_col = W64_BUILTIN_COLUMN()
#define w64_site (::w64::Site{w64_file, w64_line, w64_col})
// A lock-step point (src/wave64/transform.cpp inserts it after a warp-synchronous step in shared
// memory): a wave barrier over the lanes that reach it, grouped by its site like a warp operation.
#define W64_LOCKSTEP()                             \
  ((void)::w64::rt::vote(::w64::rt::Vote::Sync, 0, \
                         ::w64::Site{__FILE__, static_cast<unsigned>(__LINE__), W64_BUILTIN_COLUMN()}))

namespace rt {

// What kernel code reads for threadIdx / blockIdx / blockDim / gridDim. Set by the scheduler
// on every fiber switch.
struct LaneInfo {
  uint3 tid;
  unsigned linear;  // index in the block
  unsigned lane;    // index in the wavefront
  unsigned wave;    // wavefront index in the block
};
struct BlockInfo {
  uint3 bid;
  dim3 bdim;
  dim3 gdim;
  unsigned char* dyn_shared;
  std::size_t dyn_bytes;
};
// `__thread`, not `thread_local`: no dynamic initialisation, so a read is one load from the
// thread pointer instead of a call of C++'s TLS wrapper (kernels read threadIdx a lot).
extern __thread const LaneInfo* t_lane;
extern __thread const BlockInfo* t_block;

// The lanes of the running block still to start. Until a lane waits (a barrier, a warp
// operation), lanes run as plain calls in one loop on one fiber (KernelCall::invoke in
// device.h), with no scheduler call per lane; the first wait makes the block `slow`, and from
// then on lanes start and finish through start_lane / finish_lane.
struct LaneCursor {
  unsigned next = 0;   // the next lane to start
  unsigned count = 0;  // lanes in the block
  bool slow = false;
  // The kernel ran the whole block in region form (regions.h): the plain-call loop stops.
  bool done = false;
  // Region form is running: a barrier or warp operation reached through the scheduler is an
  // error (the driver's region pass should have split the kernel there).
  bool region = false;
  const unsigned char* info_base = nullptr;  // LaneInfo of lane i at info_base + i * info_stride
  std::size_t info_stride = 0;
};
extern __thread LaneCursor* t_cursor;
// Slow path: starts the next lane (true), or there is none left to start (false).
bool start_lane();
// Slow path: the running lane returned from the kernel.
void finish_lane();

// Shuffle index rules: HIP 5.2 (ds_bpermute: index modulo the wavefront, inactive sources read
// 0) or CUDA (srcLane modulo width, an inactive source gives the caller's own value).
enum class Shfl : std::uint8_t { HipIdx, HipUp, HipDown, HipXor, CudaIdx, CudaUp, CudaDown, CudaXor };
void shuffle(const void* in, void* out, unsigned bytes, Shfl kind, int arg, int width, Site site);

enum class Vote : std::uint8_t { Ballot, Any, All, Active, Sync };
std::uint64_t vote(Vote kind, int pred, Site site);

// __match_any / __match_all over `bytes` bytes of value: the mask of lanes holding the same
// value; for all, *all_equal tells whether every active lane does.
std::uint64_t match(const void* value, unsigned bytes, bool all, int* all_equal, Site site);

// __reduce_*_sync: op over the active lanes' 32-bit values.
enum class Reduce : std::uint8_t { AddU, MinU, MaxU, MinS, MaxS, And, Or, Xor };
std::uint32_t reduce(Reduce op, std::uint32_t v, Site site);

// __syncthreads and its counting forms (kind 0 plain, 1 count, 2 and, 3 or).
int block_barrier(int kind, int pred);

// A barrier over the block's lanes first .. first+count-1 (a cooperative-groups tile wider than
// the wavefront); lanes that finished count as arrived.
void tile_barrier(unsigned first, unsigned count);
// 16 bytes a lane (by index in the block) publishes to the other lanes of its tile.
void* lane_slot(unsigned linear);

// grid_group::sync(): a barrier over every thread of a cooperative launch (each block of one runs
// on its own OS thread, so all are resident at once). Fatal in a kernel launched otherwise.
void grid_sync();
// Whether the running kernel was launched cooperatively (grid_group::is_valid()).
bool in_cooperative_launch();

// A mask argument of a _sync intrinsic that does not name the calling lane (undefined in CUDA):
// reported once per call site. The test is inline (a warp operation's common case costs no call).
void mask_excludes_lane(std::uint64_t mask, Site site);
inline void check_mask(std::uint64_t mask, Site site) {
  const LaneInfo* l = t_lane;
  if (l && !(mask >> l->lane & 1)) mask_excludes_lane(mask, site);
}

// Launch of one kernel: the front headers wrap the kernel and its copied arguments in `invoke`.
struct Launch {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes;
  std::size_t shared_limit;  // what the device model allows for this kernel
  unsigned wave;
  void (*invoke)(void* closure);
  void* closure;
  // cudaLaunchCooperativeKernel: every block at once, at most `max_blocks` of them (the blocks
  // the device model holds resident: multiprocessors times blocks per multiprocessor).
  bool cooperative = false;
  std::uint64_t max_blocks = 0;
};
// Runs the whole grid before returning; 0, or an error code of the runtime (see Error below).
int launch(const Launch& l);

enum Error : int {
  kOk = 0,
  kInvalidValue = 1,
  kOutOfMemory = 2,
  kInvalidConfiguration = 9,
  kInvalidDevice = 101,
  kInvalidHandle = 400,
  kNotReady = 600,
  kLaunchFailure = 719,
  kCooperativeLaunchTooLarge = 720,
};

// File-scope `extern __shared__ T name[]` (rewritten by the driver): a thread-local pointer the
// runtime points at each block's dynamic shared memory.
struct DynSharedSlot {
  explicit DynSharedSlot(void** (*slot)());
};

// Runtime settings from the environment (W64_THREADS, W64_STACK_KB, W64_VERBOSE).
unsigned worker_threads();

}  // namespace rt
}  // namespace w64

#define W64_THREAD_IDX (::w64::rt::t_lane->tid)
#define W64_BLOCK_IDX (::w64::rt::t_block->bid)
#define W64_BLOCK_DIM (::w64::rt::t_block->bdim)
#define W64_GRID_DIM (::w64::rt::t_block->gdim)
