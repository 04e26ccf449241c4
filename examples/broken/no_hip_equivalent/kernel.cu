// Uses CUDA features with no HIP counterpart: __nanosleep in a spin-wait, and
// Hopper thread-block clusters with distributed shared memory
// (cooperative_groups::this_cluster, map_shared_rank, cudaLaunchKernelEx with
// a cluster-dimension attribute). Compiles with nvcc -arch=sm_90.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__device__ unsigned g_ready = 0;

__global__ void producer_consumer(float* out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = 42.f;
        __threadfence();
        atomicExch(&g_ready, 1u);
    } else if (threadIdx.x == 0) {
        while (atomicAdd(&g_ready, 0u) == 0u) __nanosleep(100);
        out[blockIdx.x] = out[0] + blockIdx.x;
    }
}

// Each block of a 2-block cluster reads its neighbour's shared memory.
__global__ void __cluster_dims__(2, 1, 1) cluster_exchange(int* out) {
    __shared__ int value;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) value = (int)blockIdx.x * 10;
    cluster.sync();
    const unsigned peer = cluster.block_rank() ^ 1u;
    int* remote = cluster.map_shared_rank(&value, peer);
    if (threadIdx.x == 0) out[blockIdx.x] = *remote;
    cluster.sync();
}

int main() {
    float* d_out = nullptr;
    int* d_cluster = nullptr;
    cudaMalloc(&d_out, 4 * sizeof(float));
    cudaMalloc(&d_cluster, 2 * sizeof(int));
    producer_consumer<<<4, 32>>>(d_out);

    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(32);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.attrs = &attr;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, cluster_exchange, d_cluster);

    int h[2] = {0, 0};
    cudaMemcpy(h, d_cluster, sizeof(h), cudaMemcpyDeviceToHost);
    printf("cluster exchange: %d %d (expect 10 0)\n", h[0], h[1]);
    cudaFree(d_out);
    cudaFree(d_cluster);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
