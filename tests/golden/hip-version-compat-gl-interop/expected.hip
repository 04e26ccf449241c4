// CUDA-OpenGL interop: HIP has hip/hip_gl_interop.h from ROCm 5.7 on; HIP 5.2 declares the GL
// interop API in hip/hip_runtime_api.h. For HIP 5.2 the include becomes Ferry's compat header
// ferry/compat/gl_interop.h, which includes whichever the release has.
#include <hip/hip_runtime.h>
#include "ferry/compat/gl_interop.h"

hipGraphicsResource_t register_vbo(GLuint vbo) {
  hipGraphicsResource_t res = nullptr;
  hipGraphicsGLRegisterBuffer(&res, vbo, hipGraphicsRegisterFlagsWriteDiscard);
  return res;
}

float* map_vbo(hipGraphicsResource_t res, size_t* bytes) {
  float* ptr = nullptr;
  hipGraphicsMapResources(1, &res, 0);
  hipGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&ptr), bytes, res);
  return ptr;
}
