// CUDA-OpenGL interop: HIP has hip/hip_gl_interop.h from ROCm 5.7 on; HIP 5.2 declares the GL
// interop API in hip/hip_runtime_api.h. For HIP 5.2 the include becomes Ferry's compat header
// ferry/compat/gl_interop.h, which includes whichever the release has.
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

cudaGraphicsResource_t register_vbo(GLuint vbo) {
  cudaGraphicsResource_t res = nullptr;
  cudaGraphicsGLRegisterBuffer(&res, vbo, cudaGraphicsRegisterFlagsWriteDiscard);
  return res;
}

float* map_vbo(cudaGraphicsResource_t res, size_t* bytes) {
  float* ptr = nullptr;
  cudaGraphicsMapResources(1, &res, 0);
  cudaGraphicsResourceGetMappedPointer(reinterpret_cast<void**>(&ptr), bytes, res);
  return ptr;
}
