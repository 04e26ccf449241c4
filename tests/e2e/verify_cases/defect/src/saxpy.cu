// y = a*x + y on the device; valid CUDA, compiles with nvcc -arch=sm_90.
#include <cstdio>
#include <vector>

#include "common.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = axpy(a, x[i], y[i]);
}

int main() {
    const int n = 1 << 10;
    std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
    float* dx = nullptr;
    float* dy = nullptr;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(n, 3.0f, dx, dy);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        std::printf("launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();
    cudaMemcpy(hy.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("y[0] = %g (expect 5)\n", hy[0]);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
