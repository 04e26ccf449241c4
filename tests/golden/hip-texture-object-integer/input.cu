// Texture and surface objects are 64-bit integers in CUDA (HIP: pointers to opaque structs).
// Bindless code packs them into 32-bit words, keeps them in integer tables and prints them.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__host__ __device__ inline uint2 pack(cudaTextureObject_t t) {
  return make_uint2((unsigned)(t & 0xFFFFFFFFu), (unsigned)(t >> 32));
}

__host__ __device__ inline cudaTextureObject_t unpack(uint2 w) {
  return ((cudaTextureObject_t)w.x) | (((cudaTextureObject_t)w.y) << 32);
}

__global__ void sample(const uint2* table, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cudaTextureObject_t tex = unpack(table[i]);
  out[i] = tex == 0 ? 0.0f : tex2D<float>(tex, 0.5f, 0.5f);
}

__global__ void store(cudaSurfaceObject_t surf, int w) {
  int x = threadIdx.x;
  if (x < w) surf2Dwrite(1.0f, surf, x * (int)sizeof(float), 0);
}

void report(cudaTextureObject_t tex, cudaSurfaceObject_t surf, CUtexObject drv) {
  unsigned long long id = tex;
  printf("texture %llu, surface %llx, driver %llu\n", tex, surf, drv);
  CUtexObject copy = 0;
  copy = id + 1;
  uint2 w = pack(tex);
  if (unpack(w) != tex) printf("round trip lost bits\n");
  (void)copy;
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4111): a handle is no address
  cudaTextureObject_t next = tex + 1;
#endif
}
