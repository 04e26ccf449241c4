// Texture and surface objects are 64-bit integers in CUDA (HIP: pointers to opaque structs).
// Bindless code packs them into 32-bit words, keeps them in integer tables and prints them.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
/* ferry-cuda: #include <cuda_runtime.h> */
#include <cstdint>
#include <cstdio>

__host__ __device__ inline uint2 pack(hipTextureObject_t t) {
  return make_uint2((unsigned)(((uintptr_t)t) /* ferry-cuda: t */ & 0xFFFFFFFFu), (unsigned)(((uintptr_t)t) /* ferry-cuda: t */ >> 32));
}

__host__ __device__ inline hipTextureObject_t unpack(uint2 w) {
  return ((hipTextureObject_t)(uintptr_t)(((uintptr_t /* ferry-cuda: cudaTextureObject_t */)w.x) | (((uintptr_t /* ferry-cuda: cudaTextureObject_t */)w.y) << 32))) /* ferry-cuda: ((cudaTextureObject_t)w.x) | (((cudaTextureObject_t)w.y) << 32) */;
}

__global__ void sample(const uint2* table, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  hipTextureObject_t tex = unpack(table[i]);
  out[i] = tex == 0 ? 0.0f : tex2D<float>(tex, 0.5f, 0.5f);
}

__global__ void store(hipSurfaceObject_t surf, int w) {
  int x = threadIdx.x;
  if (x < w) surf2Dwrite(1.0f, surf, x * (int)sizeof(float), 0);
}

void report(hipTextureObject_t tex, hipSurfaceObject_t surf, hipTextureObject_t /* ferry-cuda: CUtexObject */ drv) {
  unsigned long long id = ((uintptr_t)tex) /* ferry-cuda: tex */;
  printf("texture %llu, surface %llx, driver %llu\n", ((unsigned long long)tex) /* ferry-cuda: tex */, ((unsigned long long)surf) /* ferry-cuda: surf */, ((unsigned long long)drv) /* ferry-cuda: drv */);
  hipTextureObject_t /* ferry-cuda: CUtexObject */ copy = 0;
  copy = ((hipTextureObject_t)(uintptr_t)(id + 1)) /* ferry-cuda: id + 1 */;
  uint2 w = pack(tex);
  if (unpack(w) != tex) printf("round trip lost bits\n");
  (void)copy;
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4111): a handle is no address
  hipTextureObject_t next = tex + 1;
#endif
}
