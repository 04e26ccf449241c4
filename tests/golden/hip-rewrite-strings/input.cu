// --rewrite-strings renames API names inside string literals (messages), as hipify-clang can.
// Without it Ferry never touches strings or comments (see hip-rules-exclusion).
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) std::printf("%s failed: %s\n", #call, cudaGetErrorString(e_)); \
  } while (0)

int main() {
  float* d = nullptr;
  cudaError_t e = cudaMalloc(&d, 1024);
  if (e != cudaSuccess) std::printf("cudaMalloc failed (cudaError_t %d)\n", static_cast<int>(e));
  std::puts("calling cudaDeviceSynchronize\tthen cudaFree");
  std::puts("mycudaMalloc and cudaMalloc2 are ours; CUDA and cuda stay");  // not API names
  CHECK(cudaDeviceSynchronize());
  const char* raw = R"(cudaFree)";  // raw strings are left as written
  std::puts(raw);
  // cudaFree in a comment stays
  return cudaFree(d) == cudaSuccess ? 0 : 1;
}
