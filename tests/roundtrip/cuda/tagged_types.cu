// CUDA runtime types written with their tag keyword (issue #28, class 9): HIP declares the names
// they map to as typedefs of other tags, so the keyword goes on the way there and its record
// brings it back.
#include <cuda_runtime.h>
#include <cstdio>

typedef struct CUgraphicsResource_st *GraphicsHandle;  // a driver tag the rules also respell

struct Interop {
  struct cudaGraphicsResource *pair[2];
  struct cudaGraphicsResource  *single;
};

extern struct cudaGraphicsResource *shared_resource;

static size_t count_bound(struct cudaGraphicsResource **list, int n) {
  size_t bound = 0;
  for (int k = 0; k < n; ++k) bound += list[k] != nullptr;
  return bound + sizeof(struct cudaGraphicsResource *);
}

int main() {
  Interop io = {};
  struct cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s %zu\n", prop.name, count_bound(io.pair, 2));
  return 0;
}
