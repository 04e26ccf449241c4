// allreduce.cu - NCCL sum all-reduce across the visible GPUs of one process.
//
// Shows: ncclCommInitAll (one communicator per device, single process),
// ncclGroupStart/ncclGroupEnd around per-device ncclAllReduce calls, one
// stream per device, cudaSetDevice switching, and event timing on device 0.
// With a single GPU this is a one-rank all-reduce: still a real NCCL call.
#include <algorithm>
#include <cmath>
#include <vector>

#include <nccl.h>

#include "llama_ops/common.cuh"
#include "llama_ops/ops.h"

namespace llama_ops {

// Exactly representable inputs, so the sum is exact in any order.
static float allreduce_input(int rank, size_t j) {
    return (float)(rank + 1) + 0.25f * (float)(j % 8);
}

static void run_allreduce(std::vector<float*>& send, std::vector<float*>& recv, size_t count,
                          std::vector<ncclComm_t>& comms, std::vector<cudaStream_t>& streams) {
    NCCL_CHECK(ncclGroupStart());
    for (size_t r = 0; r < comms.size(); ++r)
        NCCL_CHECK(ncclAllReduce(send[r], recv[r], count, ncclFloat, ncclSum, comms[r],
                                 streams[r]));
    NCCL_CHECK(ncclGroupEnd());
}

AllReduceResult allreduce_selftest(size_t count, int max_devices, int n_iter) {
    AllReduceResult result;
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    const int ndev = std::max(1, std::min(visible, max_devices));
    result.ndev = ndev;

    std::vector<int> devices(ndev);
    for (int i = 0; i < ndev; ++i) devices[i] = i;
    std::vector<ncclComm_t> comms(ndev);
    NCCL_CHECK(ncclCommInitAll(comms.data(), ndev, devices.data()));

    std::vector<float*> send(ndev), recv(ndev);
    std::vector<cudaStream_t> streams(ndev);
    std::vector<std::vector<float>> host(ndev, std::vector<float>(count));
    for (int r = 0; r < ndev; ++r) {
        for (size_t j = 0; j < count; ++j) host[r][j] = allreduce_input(r, j);
        CUDA_CHECK(cudaSetDevice(devices[r]));
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
        CUDA_CHECK(cudaMalloc(&send[r], count * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&recv[r], count * sizeof(float)));
        CUDA_CHECK(cudaMemcpyAsync(send[r], host[r].data(), count * sizeof(float),
                                   cudaMemcpyHostToDevice, streams[r]));
        CUDA_CHECK(cudaMemsetAsync(recv[r], 0, count * sizeof(float), streams[r]));
    }

    run_allreduce(send, recv, count, comms, streams);
    for (int r = 0; r < ndev; ++r) {
        CUDA_CHECK(cudaSetDevice(devices[r]));
        CUDA_CHECK(cudaStreamSynchronize(streams[r]));
    }

    std::vector<float> got(count);
    double max_err = 0.0;
    for (int r = 0; r < ndev; ++r) {
        CUDA_CHECK(cudaSetDevice(devices[r]));
        CUDA_CHECK(cudaMemcpy(got.data(), recv[r], count * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t j = 0; j < count; ++j) {
            float expected = 0.f;
            for (int s = 0; s < ndev; ++s) expected += allreduce_input(s, j);
            max_err = std::max(max_err, (double)std::fabs(got[j] - expected));
        }
    }
    result.max_abs_err = max_err;

    // Timing: events on device 0; its all-reduce cannot finish before all ranks' do.
    CUDA_CHECK(cudaSetDevice(devices[0]));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, streams[0]));
    for (int it = 0; it < n_iter; ++it) run_allreduce(send, recv, count, comms, streams);
    CUDA_CHECK(cudaSetDevice(devices[0]));
    CUDA_CHECK(cudaEventRecord(stop, streams[0]));
    for (int r = 0; r < ndev; ++r) {
        CUDA_CHECK(cudaSetDevice(devices[r]));
        CUDA_CHECK(cudaStreamSynchronize(streams[r]));
    }
    float ms = 0.f;
    CUDA_CHECK(cudaSetDevice(devices[0]));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    result.avg_us = n_iter > 0 ? 1000.0 * ms / n_iter : 0.0;
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));

    for (int r = 0; r < ndev; ++r) {
        CUDA_CHECK(cudaSetDevice(devices[r]));
        CUDA_CHECK(cudaFree(send[r]));
        CUDA_CHECK(cudaFree(recv[r]));
        CUDA_CHECK(cudaStreamDestroy(streams[r]));
        NCCL_CHECK(ncclCommDestroy(comms[r]));
    }
    CUDA_CHECK(cudaSetDevice(devices[0]));
    return result;
}

}  // namespace llama_ops
