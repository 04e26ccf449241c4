// CUdeviceptr is an integer in CUDA: virtual-memory code computes with it. Reduced from the
// driver API samples' shapes (a reserved range split in chunks, a kernel argument buffer).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <cstdint>
#include <cstdio>
#include <cstring>

struct Chunk {
  hipDeviceptr_t base;
  size_t size;
};

static hipError_t /* ferry-cuda: CUresult */ map_chunks(hipDeviceptr_t *dptr, size_t size, size_t chunk, hipMemGenericAllocationHandle_t h) {
  hipError_t /* ferry-cuda: CUresult */ status = hipMemAddressReserve(dptr, size, 0, 0, 0);
  if (status != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return status;
  for (size_t i = 0; i * chunk < size; ++i) {
    status = hipMemMap(((hipDeviceptr_t)((char*)*dptr + (i * chunk))) /* ferry-cuda: *dptr + (i * chunk) */, chunk, 0, h, 0);
    if (status != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return status;
  }
  return hipSuccess /* ferry-cuda: CUDA_SUCCESS */;
}

static size_t misalignment(hipDeviceptr_t d, size_t align) { return ((uintptr_t)d) /* ferry-cuda: d */ % align; }

int run(hipMemGenericAllocationHandle_t h, size_t size, size_t align) {
  hipDeviceptr_t d_ptr = 0ULL;
  if (map_chunks(&d_ptr, size, size / 4, h) != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return 1;
  hipDeviceptr_t second = ((hipDeviceptr_t)((char*)d_ptr + size / 4)) /* ferry-cuda: d_ptr + size / 4 */;
  hipDeviceptr_t third = ((hipDeviceptr_t)(size / 2 + (char*)d_ptr)) /* ferry-cuda: size / 2 + d_ptr */;
  size_t distance = ((uintptr_t)third) /* ferry-cuda: third */ - ((uintptr_t)second) /* ferry-cuda: second */;
  Chunk c = {second, size / 4};
  (c.base = (hipDeviceptr_t)((char*)c.base + (16))) /* ferry-cuda: c.base += 16 */;
  hipDeviceptr_t end = d_ptr;
  end = ((hipDeviceptr_t)((char*)end + size - 1)) /* ferry-cuda: end + size - 1 */;
  if (((uintptr_t)end) /* ferry-cuda: end */ < 4096) return 2;
  if (d_ptr == 0) return 3;
  if (((uintptr_t)third) /* ferry-cuda: third */ != ((uintptr_t)d_ptr) /* ferry-cuda: d_ptr */ + size / 2 || ((uintptr_t)d_ptr) /* ferry-cuda: d_ptr */ + size / 4 != ((uintptr_t)second) /* ferry-cuda: second */) return 5;  // a handle against a sum
  printf("base %llx, misaligned by %zu, distance %zu\n", ((unsigned long long)d_ptr) /* ferry-cuda: d_ptr */, misalignment(d_ptr, align), distance);
  printf("chunk at %p\n", (void *)c.base);

  // Kernel arguments packed by hand: each slot holds CUdeviceptr-sized bytes.
  char argBuffer[64];
  int offset = 0;
  size_t width = 128;
  *(reinterpret_cast<hipDeviceptr_t *>(&argBuffer[offset])) = d_ptr;
  offset += sizeof(d_ptr);
  *(reinterpret_cast<hipDeviceptr_t *>(&argBuffer[offset])) = ((hipDeviceptr_t)(uintptr_t)(width)) /* ferry-cuda: width */;
  offset += sizeof(width);

  float *host_view = (float *)third;
  (void)host_view;
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4111): HIP rejects it, so the compile check skips it
  hipDeviceptr_t p = d_ptr;
  p++;
#endif
  return hipMemUnmap(d_ptr, size) == hipSuccess /* ferry-cuda: CUDA_SUCCESS */ ? 0 : 4;
}
