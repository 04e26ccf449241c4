// GL interop registrations given a map flag (cudaGraphicsMapFlags*), as most cuda-samples GL
// programs write them: CUDA's map and register flags share these values and C converts; HIP has
// no map-flag enum, so inside the registration's flags argument the flag becomes HIP's register
// flag of the same value. Elsewhere (cudaGraphicsResourceSetMapFlags, which HIP lacks) the
// map flags stay reported by the tables.
#include <hip/hip_runtime.h>
#include "ferry/compat/gl_interop.h"

hipGraphicsResource_t pbo_resource, tex_resource;

void register_all(GLuint pbo, GLuint tex, GLenum target, GLuint vbo, bool read_only) {
  hipGraphicsGLRegisterBuffer(&pbo_resource, pbo, hipGraphicsRegisterFlagsWriteDiscard /* ferry-cuda: cudaGraphicsMapFlagsWriteDiscard */);
  hipGraphicsGLRegisterImage(&tex_resource, tex, target, hipGraphicsRegisterFlagsReadOnly /* ferry-cuda: cudaGraphicsMapFlagsReadOnly */);
  hipGraphicsResource_t v;
  hipGraphicsGLRegisterBuffer(&v, vbo, read_only ? hipGraphicsRegisterFlagsReadOnly /* ferry-cuda: cudaGraphicsMapFlagsReadOnly */ : hipGraphicsRegisterFlagsNone /* ferry-cuda: cudaGraphicsMapFlagsNone */);
}
