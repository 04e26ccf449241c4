// CUDA names written with their tag keyword. HIP declares some of the names they map to as a
// typedef of another tag (hipGraphicsResource is struct _hipGraphicsResource), where the keyword
// must go; where HIP's name is a tag too (hipDeviceProp_t, hipMemcpyKind) it may stay.
#include <cuda_runtime.h>
#include <cstdio>

struct Buffers {
  struct cudaGraphicsResource *vbo[2];
  struct cudaGraphicsResource* pbo;
};

static size_t registered(struct cudaGraphicsResource **res, int n) {
  size_t total = 0;
  for (int i = 0; i < n; ++i) total += res[i] != nullptr;
  return total + sizeof(struct cudaGraphicsResource *);
}

static void describe(struct cudaExternalMemoryHandleDesc *d, unsigned long long bytes) { d->size = bytes; }

int main() {
  Buffers b = {};
  struct cudaDeviceProp prop;
  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice;
  cudaGetDeviceProperties(&prop, 0);
  struct cudaExternalMemoryHandleDesc desc = {};
  describe(&desc, 64);
  std::printf("%s %d %zu\n", prop.name, static_cast<int>(kind), registered(b.vbo, 2));
  return 0;
}
