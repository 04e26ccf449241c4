// nvcc reads a string literal written against a reserved name as two tokens; clang reads a
// user-defined literal and rejects it. The port gets a space; a real suffix stays as it is.
#include <hip/hip_runtime.h>
#include <string>

extern "C"/* ferry-cuda: (none) */__global__
void saxpy(int n, float alpha, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

extern "C"/* ferry-cuda: (none) */__host__ __device__ float twice(float v) { return 2.0f * v; }

std::string operator""_tag(const char* s, std::size_t n) { return std::string(s, n) + "!"; }
std::string tagged() { return "kernel"_tag; }
