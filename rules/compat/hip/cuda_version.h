// ferry: off
// Written by Ferry (ferry migrate --to hip) into the output tree: ferry/compat/cuda_version.h.
// CUDA code tests the toolkit's release with CUDART_VERSION (major*1000 + minor*10: 12080 is CUDA
// 12.8). HIP_VERSION counts otherwise (major*10000000 + minor*100000 + patch: HIP 5.2 is about
// 50200000), so `CUDART_VERSION >= 12080` written as HIP_VERSION is true for every HIP release
// and the code takes the newest CUDA's path (cuda_fp4.h, __nv_cvt_e8m0_to_bf16raw), and every
// `CUDART_VERSION < N` workaround is dropped. Ferry writes FERRY_CUDART_VERSION instead: the CUDA
// release whose API the migrated code may assume of HIP. It is 12000 (CUDA 12.0), so tests of CUDA
// 12.0 and older hold as they did (bf16 and fp8 paths, a toolkit CUB over a vendored one) and tests
// of later releases take their older path (CUDA 12.8's FP4). Define it on the command line to
// choose another (-DFERRY_CUDART_VERSION=11000).
#pragma once

#ifndef FERRY_CUDART_VERSION
#define FERRY_CUDART_VERSION 12000
#endif
