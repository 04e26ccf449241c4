// Ballots counted and stored: AMD's ballot is a 64-bit mask (wave64).
#include <cstdint>
#include <hip/hip_runtime.h>

__global__ void compact(const int* in, int n, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32 /* ferry-cuda: warpSize */;
  bool keep = i < n && in[i] > 0;

  unsigned int votes = ((unsigned)(__ballot(keep) >> (__lane_id() & 32)));     // 32-bit: reported
  int offset = __popc(votes & ((1u << lane) - 1));          // not the variable alone: kept
  if (lane == 0) atomicAdd(count, __popc(votes));           // reported
  if (keep) out[offset] = in[i];

  uint32_t nz = ((unsigned)(__ballot(i < n && in[i] != 0) >> (__lane_id() & 32)));  // reported
  unsigned long long wide = ((unsigned)(__ballot(keep) >> (__lane_id() & 32)));     // fine
  auto any_mask = ((unsigned)(__ballot(i < n) >> (__lane_id() & 32)));              // 64-bit on HIP
  int first = __ffsll(wide) - 1;                                   // widened to __ffsll
  int total = __popcll(any_mask);                                  // widened to __popcll
  int direct = __popcll(((unsigned)(__ballot(keep) >> (__lane_id() & 32))));          // widened to __popcll
  int top = __clz(wide);                                         // counts from bit 63: reported
  unsigned mask;
  mask = ((unsigned)(__ballot(1) >> (__lane_id() & 32)));                                         // reported
  if (lane == 0) count[1] = first + total + direct + top + (int)nz + (int)mask;
}
