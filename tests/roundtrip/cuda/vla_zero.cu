#include <cuda_runtime.h>

void clear_planes(int planes, cudaSurfaceObject_t *out) {
  cudaSurfaceObject_t surfaces[planes] = {0};
  for (int p = 0; p < planes; ++p) out[p] = surfaces[p];
}
