// utils.h - host-side helpers: an owning device buffer and an event timer.
#pragma once

#include <cstddef>
#include <vector>
#include <cuda_runtime.h>

#include "llama_ops/common.cuh"

namespace llama_ops {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t count) : count_(count) {
        CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) {
        o.ptr_ = nullptr;
        o.count_ = 0;
    }

    T* get() const { return ptr_; }
    size_t size() const { return count_; }
    size_t bytes() const { return count_ * sizeof(T); }

    void upload(const std::vector<T>& host, cudaStream_t stream) {
        CUDA_CHECK(cudaMemcpyAsync(ptr_, host.data(), host.size() * sizeof(T),
                                   cudaMemcpyHostToDevice, stream));
    }
    // Synchronous copy back; the legacy default stream waits for `stream`
    // only if it is a blocking stream, so callers synchronise first.
    std::vector<T> download() const {
        std::vector<T> host(count_);
        CUDA_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
        return host;
    }

private:
    T* ptr_ = nullptr;
    size_t count_ = 0;
};

// Average time of a launch sequence, measured with events on one stream.
class GpuTimer {
public:
    explicit GpuTimer(cudaStream_t stream) : stream_(stream) {
        CUDA_CHECK(cudaEventCreate(&start_));
        CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~GpuTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    void start() { CUDA_CHECK(cudaEventRecord(start_, stream_)); }
    // Milliseconds between start() and now.
    float stop() {
        CUDA_CHECK(cudaEventRecord(stop_, stream_));
        CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

private:
    cudaStream_t stream_;
    cudaEvent_t start_{}, stop_{};
};

}  // namespace llama_ops
