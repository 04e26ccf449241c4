// --rewrite-strings renames API names inside string literals (messages), as hipify-clang can.
// Without it Ferry never touches strings or comments (see hip-rules-exclusion).
#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    hipError_t e_ = (call);                                                           \
    if (e_ != hipSuccess) std::printf("%s failed: %s\n", #call, hipGetErrorString(e_)); \
  } while (0)

int main() {
  float* d = nullptr;
  hipError_t e = hipMalloc(&d, 1024);
  if (e != hipSuccess) std::printf("hipMalloc failed (hipError_t %d)\n", static_cast<int>(e));
  std::puts("calling hipDeviceSynchronize\tthen hipFree");
  std::puts("mycudaMalloc and cudaMalloc2 are ours; CUDA and cuda stay");  // not API names
  CHECK(hipDeviceSynchronize());
  const char* raw = R"(cudaFree)";  // raw strings are left as written
  std::puts(raw);
  // cudaFree in a comment stays
  return hipFree(d) == hipSuccess ? 0 : 1;
}
