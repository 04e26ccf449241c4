// common.h - error checks and limits shared by the HIP example.
//
// Written the HIP-native way: nothing here assumes a wavefront width. Code
// asks `warpSize` (64 on gfx9 / Hygon DCU, 32 on RDNA and on NVIDIA) and
// sizes per-warp scratch arrays for the smallest width it may meet.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(cmd)                                                            \
    do {                                                                          \
        hipError_t e_ = (cmd);                                                    \
        if (e_ != hipSuccess) {                                                   \
            fprintf(stderr, "HIP error '%s' (%d) at %s:%d\n", hipGetErrorString(e_), \
                    (int)e_, __FILE__, __LINE__);                                 \
            exit(EXIT_FAILURE);                                                   \
        }                                                                         \
    } while (0)

// Expands to hipBLAS names: only for files that include <hipblas/hipblas.h>.
#define HIPBLAS_CHECK(cmd)                                                        \
    do {                                                                          \
        hipblasStatus_t s_ = (cmd);                                               \
        if (s_ != HIPBLAS_STATUS_SUCCESS) {                                       \
            fprintf(stderr, "hipBLAS error %d at %s:%d\n", (int)s_, __FILE__,     \
                    __LINE__);                                                    \
            exit(EXIT_FAILURE);                                                   \
        }                                                                         \
    } while (0)

// 1024 threads per block / 32 lanes: enough slots for any warp width >= 32.
#define MAX_WARPS_PER_BLOCK 32
