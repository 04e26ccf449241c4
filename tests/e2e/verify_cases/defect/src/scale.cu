// A second unit that migrates cleanly: it must pass for every arch.
#include "common.cuh"

__global__ void scale(int n, float a, float* x) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = axpy(a, x[i], 0.0f);
}

void launch_scale(int n, float a, float* x, cudaStream_t s) {
    scale<<<(n + 127) / 128, 128, 0, s>>>(n, a, x);
}
