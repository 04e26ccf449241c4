// CUDA names written with their tag keyword. HIP declares some of the names they map to as a
// typedef of another tag (hipGraphicsResource is struct _hipGraphicsResource), where the keyword
// must go; where HIP's name is a tag too (hipDeviceProp_t, hipMemcpyKind) it may stay.
#include <hip/hip_runtime.h>
#include <cstdio>

struct Buffers {
  hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */ *vbo[2];
  hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */* pbo;
};

static size_t registered(hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */ **res, int n) {
  size_t total = 0;
  for (int i = 0; i < n; ++i) total += res[i] != nullptr;
  return total + sizeof(hipGraphicsResource /* ferry-cuda: struct cudaGraphicsResource */ *);
}

static void describe(hipExternalMemoryHandleDesc /* ferry-cuda: struct cudaExternalMemoryHandleDesc */ *d, unsigned long long bytes) { d->size = bytes; }

int main() {
  Buffers b = {};
  struct hipDeviceProp_t prop;
  enum hipMemcpyKind kind = hipMemcpyHostToDevice;
  hipGetDeviceProperties(&prop, 0);
  hipExternalMemoryHandleDesc /* ferry-cuda: struct cudaExternalMemoryHandleDesc */ desc = {};
  describe(&desc, 64);
  std::printf("%s %d %zu\n", prop.name, static_cast<int>(kind), registered(b.vbo, 2));
  return 0;
}
