// portable.cuh - warp-width-independent building blocks of the training kernels
// (flash_attention.cuh, backward.cuh).
//
// Unlike common.cuh and reduce.cuh, which are written the way most CUDA code is (32 lanes
// assumed everywhere, on purpose: they show what a migrator must find), nothing here depends on
// the number of lanes in a warp. Row reductions combine groups of G consecutive lanes with
// width-G shuffles, which never leave their G-lane segment, so they compute the same on a
// 32-lane NVIDIA warp and on a 64-lane AMD wavefront; whole-warp reductions count with
// `warpSize`. `ferry analyze --target gfx906` reports nothing in these files, and
// tests/kernels/ runs them under a CPU emulator with 32 and with 64 lanes.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Every lane of the warp, for the *_sync intrinsics. CUDA takes a 32-bit mask; HIP's shuffles
// act on the whole wavefront (`ferry migrate --to hip` drops the mask), so its branch is 64 bits.
#if defined(__HIP_PLATFORM_AMD__)
#define LLAMA_OPS_ALL_LANES (~0ull)
#else
#define LLAMA_OPS_ALL_LANES 0xffffffffu
#endif

namespace llama_ops {

// bfloat16 as raw bits (the layout of torch.bfloat16). Not cuda_bf16.h: HIP 5.2, the HIP that
// Debian ships, has no hip_bf16.h, and the kernels only need two conversions.
struct bf16 {
    unsigned short bits;
};

// Two 16-bit elements in one 32-bit word (element 2i in the low half): tiles are moved and kept
// in shared memory as words, and unpacked to float only in registers.
template <class T>
struct Pair16;

template <>
struct Pair16<__half> {
    static __device__ __forceinline__ float2 unpack(unsigned w) {
        return make_float2(__half2float(__ushort_as_half((unsigned short)(w & 0xffffu))),
                           __half2float(__ushort_as_half((unsigned short)(w >> 16))));
    }
    static __device__ __forceinline__ unsigned pack(float lo, float hi) {
        return (unsigned)__half_as_ushort(__float2half_rn(lo)) |
               ((unsigned)__half_as_ushort(__float2half_rn(hi)) << 16);
    }
};

template <>
struct Pair16<bf16> {
    static __device__ __forceinline__ float2 unpack(unsigned w) {
        return make_float2(__uint_as_float(w << 16), __uint_as_float(w & 0xffff0000u));
    }
    // Round to nearest even; NaN stays a (quiet) NaN.
    static __device__ __forceinline__ unsigned bits(float f) {
        const unsigned u = __float_as_uint(f);
        if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
        return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    }
    static __device__ __forceinline__ unsigned pack(float lo, float hi) {
        return bits(lo) | (bits(hi) << 16);
    }
};

// Max / sum over the G consecutive lanes of a row group (G a power of two dividing the warp
// width); every lane of the group gets the result. All lanes of the warp must call it.
template <int G>
__device__ __forceinline__ float group_max(float v) {
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(LLAMA_OPS_ALL_LANES, v, offset, G));
    return v;
}

template <int G>
__device__ __forceinline__ float group_sum(float v) {
#pragma unroll
    for (int offset = G / 2; offset > 0; offset /= 2)
        v += __shfl_xor_sync(LLAMA_OPS_ALL_LANES, v, offset, G);
    return v;
}

// Sum over a block of NT threads (NT a multiple of the warp width); every thread gets the same
// value, summed in the same order. One partial per warp: NT slots hold them for any width.
template <int NT>
__device__ __forceinline__ float block_sum(float v) {
    __shared__ float partial[NT];
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_xor_sync(LLAMA_OPS_ALL_LANES, v, offset);
    const int lane = threadIdx.x % warpSize;
    const int warp = threadIdx.x / warpSize;
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    float total = 0.f;
    const int warps = NT / warpSize;
    for (int w = 0; w < warps; ++w) total += partial[w];
    __syncthreads();  // `partial` may be reused by the next call
    return total;
}

}  // namespace llama_ops
