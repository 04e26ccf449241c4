// kernels.cpp - HIP kernels written without assuming a wavefront width.
//
// Shows: hipLaunchKernelGGL, HIP_KERNEL_NAME around a templated kernel, the
// mask-free __shfl_down / __shfl_up / __shfl, the 64-bit __ballot counted with
// __popcll, lane and warp indices computed from warpSize, a __constant__
// table written with hipMemcpyToSymbol(HIP_SYMBOL(...)).
#include "kernels.h"

#include <cfloat>

#include "common.h"

__constant__ float c_scale_bias[2];  // {scale, bias}

__device__ inline float warp_sum(float v) {
    // Result is valid in lane 0 of each warp.
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

__device__ inline float warp_max(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down(v, offset));
    return v;
}

// Block-wide sum / max, broadcast to every thread.
__device__ float block_sum(float v) {
    __shared__ float partial[MAX_WARPS_PER_BLOCK];
    const int lane = threadIdx.x % warpSize;
    const int wid = threadIdx.x / warpSize;
    const int num_warps = (blockDim.x + warpSize - 1) / warpSize;
    v = warp_sum(v);
    if (lane == 0) partial[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < num_warps ? partial[lane] : 0.f;
        v = warp_sum(v);
        if (lane == 0) partial[0] = v;
    }
    __syncthreads();
    v = partial[0];
    __syncthreads();
    return v;
}

__device__ float block_max(float v) {
    __shared__ float partial[MAX_WARPS_PER_BLOCK];
    const int lane = threadIdx.x % warpSize;
    const int wid = threadIdx.x / warpSize;
    const int num_warps = (blockDim.x + warpSize - 1) / warpSize;
    v = warp_max(v);
    if (lane == 0) partial[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < num_warps ? partial[lane] : -FLT_MAX;
        v = warp_max(v);
        if (lane == 0) partial[0] = v;
    }
    __syncthreads();
    v = partial[0];
    __syncthreads();
    return v;
}

__global__ void reduce_sum_kernel(const float* __restrict__ x, float* __restrict__ out, int n) {
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += x[i];
    v = block_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

__global__ void count_above_kernel(const float* __restrict__ x, unsigned long long* count, int n,
                                   float threshold) {
    const int lane = threadIdx.x % warpSize;
    unsigned long long local = 0;
    // Uniform trip count per warp: every lane reaches the __ballot.
    const int stride = gridDim.x * blockDim.x;
    for (int base = blockIdx.x * blockDim.x; base < n; base += stride) {
        const int i = base + threadIdx.x;
        const bool hit = i < n && x[i] > threshold;
        const unsigned long long mask = __ballot(hit);  // one bit per lane, up to 64
        local += __popcll(mask);
    }
    if (lane == 0) atomicAdd(count, local);
}

__global__ void scale_bias_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * c_scale_bias[0] + c_scale_bias[1];
}

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
row_softmax_kernel(const T* __restrict__ x, T* __restrict__ y, int cols) {
    const T* xr = x + (size_t)blockIdx.x * cols;
    T* yr = y + (size_t)blockIdx.x * cols;
    float m = -FLT_MAX;
    for (int i = threadIdx.x; i < cols; i += BLOCK) m = fmaxf(m, (float)xr[i]);
    m = block_max(m);
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += BLOCK) s += expf((float)xr[i] - m);
    s = block_sum(s);
    const float inv = 1.f / s;
    for (int i = threadIdx.x; i < cols; i += BLOCK) yr[i] = (T)(expf((float)xr[i] - m) * inv);
}

__global__ void segmented_scan_kernel(const int* __restrict__ x, int* __restrict__ y, int n) {
    __shared__ int warp_totals[MAX_WARPS_PER_BLOCK];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize;
    const int wid = threadIdx.x / warpSize;
    const int num_warps = blockDim.x / warpSize;

    int v = i < n ? x[i] : 0;
    for (int d = 1; d < warpSize; d *= 2) {
        const int t = __shfl_up(v, d);
        if (lane >= d) v += t;
    }
    if (lane == warpSize - 1) warp_totals[wid] = v;
    __syncthreads();
    if (wid == 0) {
        int t = lane < num_warps ? warp_totals[lane] : 0;
        for (int d = 1; d < warpSize; d *= 2) {
            const int u = __shfl_up(t, d);
            if (lane >= d) t += u;
        }
        if (lane < num_warps) warp_totals[lane] = t;
    }
    __syncthreads();
    if (wid > 0) v += warp_totals[wid - 1];
    // Lane 0's view of the block total, to show __shfl with a source lane.
    const int first_of_warp = __shfl(v, 0);
    (void)first_of_warp;
    if (i < n) y[i] = v;
}

static int grid_for(int n, int threads, int cap = 1024) {
    const int blocks = (n + threads - 1) / threads;
    return blocks < cap ? (blocks > 0 ? blocks : 1) : cap;
}

void reduce_sum(const float* x, float* out, int n, hipStream_t stream) {
    hipLaunchKernelGGL(reduce_sum_kernel, dim3(grid_for(n, 256)), dim3(256), 0, stream, x, out, n);
    HIP_CHECK(hipGetLastError());
}

void count_above(const float* x, unsigned long long* count, int n, float threshold,
                 hipStream_t stream) {
    hipLaunchKernelGGL(count_above_kernel, dim3(grid_for(n, 256)), dim3(256), 0, stream, x,
                       count, n, threshold);
    HIP_CHECK(hipGetLastError());
}

void set_scale_bias(float scale, float bias) {
    const float params[2] = {scale, bias};
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(c_scale_bias), params, sizeof(params), 0,
                                hipMemcpyHostToDevice));
}

void scale_bias(const float* x, float* y, int n, hipStream_t stream) {
    hipLaunchKernelGGL(scale_bias_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, x, y, n);
    HIP_CHECK(hipGetLastError());
}

void row_softmax(const float* x, float* y, int rows, int cols, hipStream_t stream) {
    if (cols <= 256) {
        hipLaunchKernelGGL(HIP_KERNEL_NAME(row_softmax_kernel<float, 64>), dim3(rows), dim3(64),
                           0, stream, x, y, cols);
    } else {
        hipLaunchKernelGGL(HIP_KERNEL_NAME(row_softmax_kernel<float, 256>), dim3(rows),
                           dim3(256), 0, stream, x, y, cols);
    }
    HIP_CHECK(hipGetLastError());
}

void segmented_scan(const int* x, int* y, int n, hipStream_t stream) {
    hipLaunchKernelGGL(segmented_scan_kernel, dim3((n + kScanSegment - 1) / kScanSegment),
                       dim3(kScanSegment), 0, stream, x, y, n);
    HIP_CHECK(hipGetLastError());
}
