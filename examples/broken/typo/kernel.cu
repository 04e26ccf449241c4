// Pre-existing error: the input does not compile with nvcc either (a typo in
// a CUDA enum name), so a failed verify is not the migrator's fault.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

int main() {
    const int n = 256;
    float h[n] = {};
    float* d = nullptr;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevise);
    add_one<<<1, n>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    cudaFree(d);
    return 0;
}
