// Ballots counted and stored: AMD's ballot is a 64-bit mask (wave64).
#include <cstdint>
#include <cuda_runtime.h>

__global__ void compact(const int* in, int n, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  bool keep = i < n && in[i] > 0;

  unsigned int votes = __ballot_sync(0xffffffff, keep);     // 32-bit: reported
  int offset = __popc(votes & ((1u << lane) - 1));          // not the variable alone: kept
  if (lane == 0) atomicAdd(count, __popc(votes));           // reported
  if (keep) out[offset] = in[i];

  uint32_t nz = __ballot_sync(0xffffffff, i < n && in[i] != 0);  // reported
  unsigned long long wide = __ballot_sync(0xffffffff, keep);     // fine
  auto any_mask = __ballot_sync(0xffffffff, i < n);              // 64-bit on HIP
  int first = __ffs(wide) - 1;                                   // widened to __ffsll
  int total = __popc(any_mask);                                  // widened to __popcll
  int direct = __popc(__ballot_sync(0xffffffff, keep));          // widened to __popcll
  int top = __clz(wide);                                         // counts from bit 63: reported
  unsigned mask;
  mask = __activemask();                                         // reported
  if (lane == 0) count[1] = first + total + direct + top + (int)nz + (int)mask;
}
