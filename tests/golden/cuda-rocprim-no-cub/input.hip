// rocPRIM uses with no CUB form in Ferry (written for this test): reported (FRY1208), left.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

struct Mul {
  __device__ int operator()(int a, int b) const { return a * b; }
};

hipError_t run(int* in, int* out, unsigned char* flags, size_t* count, size_t n, hipStream_t stream) {
  void* temp = nullptr;
  size_t bytes = 0;
  hipError_t e = rocprim::select(temp, bytes, in, flags, out, count, n, stream);
  e = rocprim::reduce(temp, bytes, in, out, n, Mul{});
  e = rocprim::transform(in, out, n, Mul{}, stream);
  return e;
}

__global__ void k(int* p) {
  rocprim::warp_reduce<int, 32> wr;
  (void)wr;
  (void)p;
}
