// Texture and surface objects passed by reference: the `&` of the declarator is no bitwise and, so
// the name is no integer use (cuda-samples cudaNvSci's rotateKernel(cudaTextureObject_t &texObj, ...)).
#include <cuda_runtime.h>

__global__ void rotate(cudaTextureObject_t tex, cudaSurfaceObject_t surf, int w) {
  const float v = tex2D<float>(tex, threadIdx.x + 0.5f, 0.5f);
  surf2Dwrite(v, surf, threadIdx.x * sizeof(float), 0);
}

void run(cudaTextureObject_t &texObj, cudaSurfaceObject_t& surf, const int width, cudaStream_t stream) {
  rotate<<<1, width, 0, stream>>>(texObj, surf, width);
  if (texObj != 0) cudaDestroyTextureObject(texObj);
  texObj = 0;
}
