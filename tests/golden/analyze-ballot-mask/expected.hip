// Ballots and masks (FRY2206-FRY2208; reported by `ferry analyze`; inside `ferry migrate` the
// warp-intrinsics pass rewrites these calls). Look-alikes that must not fire are at the end.
#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffff

__global__ void vote(const int* in, int* out) {
  const bool hit = in[threadIdx.x] > 0;
  unsigned long long /* ferry-cuda: unsigned */ ballot = __ballot(/* ferry-cuda: __ballot_sync(FULL_MASK,  */ hit);    // FRY2206, FRY2207
  const int count = __popcll /* ferry-cuda: __popc */(ballot);                   // FRY2208
  const unsigned long long /* ferry-cuda: uint32_t */ active = __ballot(1);             // FRY2207
  const int first = __ffsll /* ferry-cuda: __ffs */(__ballot(hit)) - 1;  // FRY2206, FRY2208
  // fine: 64-bit storage and counting, and __popc of something that is not a ballot
  const unsigned long long wide = __ballot(/* ferry-cuda: __ballot_sync(__activemask(),  */ hit);
  const int wide_count = __popcll(wide);
  const int bits = __popc(in[threadIdx.x]);
  out[threadIdx.x] = count + (int)active + first + wide_count + bits;
}
