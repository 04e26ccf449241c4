// HIP's module occupancy query has no block-size-to-shared-memory callback; CUDA's driver
// function takes one before the fixed size: the way back passes none (0), which asks CUDA the
// same question. The flags are the driver API's in driver code. The input is Ferry's port of a
// CUDA driver program (the record says <cuda.h>); a HIP program written as such gets no <cuda.h>
// on the way back yet (docs/targets.md).
#include <hip/hip_runtime.h> /* ferry-cuda: <cuda.h> */
#include <cstdio>

int suggest(hipFunction_t f) {
  hipInit(0);
  int grid = 0, block = 0, block2 = 0;
  if (hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 256 * sizeof(float), 0) != hipSuccess) return -1;
  hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block2, f, 0, 1024, hipOccupancyDefault);
  printf("grid %d block %d / %d\n", grid, block, block2);
  return block;
}
