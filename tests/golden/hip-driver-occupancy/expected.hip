// Occupancy with the driver API: CUDA's cuOccupancyMaxPotentialBlockSize takes a
// block-size-to-dynamic-shared-memory callback before the fixed size; HIP's
// hipModuleOccupancyMaxPotentialBlockSize has no callback parameter. Without a callback (0)
// both compute with the fixed size, so the argument goes; a real callback cannot be ported.
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <cstdio>

static size_t smem_for(int block) { return block * sizeof(float); }

int suggest(hipFunction_t /* ferry-cuda: CUfunction */ f) {
  int min_grid = 0, block = 0;
  if (hipModuleOccupancyMaxPotentialBlockSize(&min_grid, &block, f, 256 * sizeof(float), 0) != hipSuccess /* ferry-cuda: CUDA_SUCCESS */) return -1;
  int block2 = 0;
  hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&min_grid, &block2, f, 0, 1024, hipOccupancyDefault /* ferry-cuda: CU_OCCUPANCY_DEFAULT */);
  printf("grid %d block %d / %d\n", min_grid, block, block2);
#ifdef GOLDEN_NOT_COMPILED  // a callback has no HIP counterpart (FRY1001): HIP rejects the call
  hipModuleOccupancyMaxPotentialBlockSize(&min_grid, &block, f, smem_for, 0, 0);
#endif
  return block;
}
