// GL interop registrations given a map flag (cudaGraphicsMapFlags*), as most cuda-samples GL
// programs write them: CUDA's map and register flags share these values and C converts; HIP has
// no map-flag enum, so inside the registration's flags argument the flag becomes HIP's register
// flag of the same value. Elsewhere (cudaGraphicsResourceSetMapFlags, which HIP lacks) the
// map flags stay reported by the tables.
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

cudaGraphicsResource_t pbo_resource, tex_resource;

void register_all(GLuint pbo, GLuint tex, GLenum target, GLuint vbo, bool read_only) {
  cudaGraphicsGLRegisterBuffer(&pbo_resource, pbo, cudaGraphicsMapFlagsWriteDiscard);
  cudaGraphicsGLRegisterImage(&tex_resource, tex, target, cudaGraphicsMapFlagsReadOnly);
  cudaGraphicsResource_t v;
  cudaGraphicsGLRegisterBuffer(&v, vbo, read_only ? cudaGraphicsMapFlagsReadOnly : cudaGraphicsMapFlagsNone);
}
