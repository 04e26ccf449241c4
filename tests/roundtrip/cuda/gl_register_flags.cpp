// A map flag passed where the GL registration takes a register flag (issue #28, class 9): HIP has
// no map-flag enum, so the flag becomes HIP's register flag of the same value, recorded.
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

void register_buffers(unsigned int vbo, unsigned int pbo, cudaGraphicsResource_t *res) {
  cudaGraphicsGLRegisterBuffer(&res[0], vbo, cudaGraphicsMapFlagsWriteDiscard);
  cudaGraphicsGLRegisterBuffer(&res[1], pbo, cudaGraphicsMapFlagsNone);
}
