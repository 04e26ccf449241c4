// CUdeviceptr is an integer in CUDA: virtual-memory code computes with it. Reduced from the
// driver API samples' shapes (a reserved range split in chunks, a kernel argument buffer).
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

struct Chunk {
  CUdeviceptr base;
  size_t size;
};

static CUresult map_chunks(CUdeviceptr *dptr, size_t size, size_t chunk, CUmemGenericAllocationHandle h) {
  CUresult status = cuMemAddressReserve(dptr, size, 0, 0, 0);
  if (status != CUDA_SUCCESS) return status;
  for (size_t i = 0; i * chunk < size; ++i) {
    status = cuMemMap(*dptr + (i * chunk), chunk, 0, h, 0);
    if (status != CUDA_SUCCESS) return status;
  }
  return CUDA_SUCCESS;
}

static size_t misalignment(CUdeviceptr d, size_t align) { return d % align; }

int run(CUmemGenericAllocationHandle h, size_t size, size_t align) {
  CUdeviceptr d_ptr = 0ULL;
  if (map_chunks(&d_ptr, size, size / 4, h) != CUDA_SUCCESS) return 1;
  CUdeviceptr second = d_ptr + size / 4;
  CUdeviceptr third = size / 2 + d_ptr;
  size_t distance = third - second;
  Chunk c = {second, size / 4};
  c.base += 16;
  CUdeviceptr end = d_ptr;
  end = end + size - 1;
  if (end < 4096) return 2;
  if (d_ptr == 0) return 3;
  if (third != d_ptr + size / 2 || d_ptr + size / 4 != second) return 5;  // a handle against a sum
  printf("base %llx, misaligned by %zu, distance %zu\n", d_ptr, misalignment(d_ptr, align), distance);
  printf("chunk at %p\n", (void *)c.base);

  // Kernel arguments packed by hand: each slot holds CUdeviceptr-sized bytes.
  char argBuffer[64];
  int offset = 0;
  size_t width = 128;
  *(reinterpret_cast<CUdeviceptr *>(&argBuffer[offset])) = d_ptr;
  offset += sizeof(d_ptr);
  *(reinterpret_cast<CUdeviceptr *>(&argBuffer[offset])) = width;
  offset += sizeof(width);

  float *host_view = (float *)third;
  (void)host_view;
#ifdef GOLDEN_NOT_COMPILED  // left as written (FRY4111): HIP rejects it, so the compile check skips it
  CUdeviceptr p = d_ptr;
  p++;
#endif
  return cuMemUnmap(d_ptr, size) == CUDA_SUCCESS ? 0 : 4;
}
