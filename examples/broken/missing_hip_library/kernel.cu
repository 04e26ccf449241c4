// Valid CUDA (compiles with nvcc and -lcublas), but its port needs hipBLAS
// (<cublas_v2.h> -> <hipblas/hipblas.h>), which Debian's HIP does not ship:
// the migrated file cannot be compiled on such a machine.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
    const int n = 4;
    float hx[n] = {1, 2, 3, 4}, hy[n] = {1, 1, 1, 1};
    float *dx = nullptr, *dy = nullptr;
    cudaMalloc(&dx, sizeof(hx));
    cudaMalloc(&dy, sizeof(hy));
    cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);

    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    const float alpha = 2.0f;
    cublasSaxpy(handle, n, &alpha, dx, 1, dy, 1);  // y = 2x + y
    cublasDestroy(handle);

    cudaMemcpy(hy, dy, sizeof(hy), cudaMemcpyDeviceToHost);
    printf("%g %g %g %g (expect 3 5 7 9)\n", hy[0], hy[1], hy[2], hy[3]);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
