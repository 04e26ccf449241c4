// Ballots counted and stored: AMD's ballot is a 64-bit mask (wave64).
#include <cstdint>
#include <hip/hip_runtime.h>

__global__ void compact(const int* in, int n, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  bool keep = i < n && in[i] > 0;

  unsigned int votes = __ballot(keep);     // 32-bit: reported
  int offset = __popc(votes & ((1u << lane) - 1));          // not the variable alone: kept
  if (lane == 0) atomicAdd(count, __popc(votes));           // reported
  if (keep) out[offset] = in[i];

  uint32_t nz = __ballot(i < n && in[i] != 0);  // reported
  unsigned long long wide = __ballot(keep);     // fine
  auto any_mask = __ballot(i < n);              // 64-bit on HIP
  int first = __ffsll(wide) - 1;                                   // widened to __ffsll
  int total = __popcll(any_mask);                                  // widened to __popcll
  int direct = __popcll(__ballot(keep));          // widened to __popcll
  int top = __clz(wide);                                         // counts from bit 63: reported
  unsigned mask;
  mask = __ballot(1);                                         // reported
  if (lane == 0) count[1] = first + total + direct + top + (int)nz + (int)mask;
}
