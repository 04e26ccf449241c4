// Texture objects: read a linear buffer through the texture path.
#include <hip/hip_runtime.h>

__global__ void gather(hipTextureObject_t tex, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, idx[i]);
}

hipTextureObject_t make_texture(float* data, size_t n) {
  hipResourceDesc res = {};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = data;
  res.res.linear.desc = hipCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  hipTextureDesc td = {};
  td.readMode = hipReadModeElementType;
  hipTextureObject_t tex = 0;
  hipCreateTextureObject(&tex, &res, &td, nullptr);
  return tex;
}
