// opcheck_support.cuh - what every `ferry opcheck` entry point of this library does around its
// operator (ferry_opcheck.h): device copies of the inputs, device outputs, one run whose outputs
// go back to the host, then untimed warm-up runs and timed repeats (CUDA events around each).
#pragma once

#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "ferry_opcheck.h"

namespace llama_ops_opcheck {

class Session {
public:
    explicit Session(ferry_opcheck_call* call) : c_(call) {
        if (!check(cudaStreamCreate(&stream_)) || !check(cudaEventCreate(&start_)) ||
            !check(cudaEventCreate(&stop_)))
            return;
        for (int i = 0; i < c_->n_inputs && ok_; ++i) {
            const ferry_tensor& t = c_->inputs[i];
            void* d = alloc(bytes(t));
            if (d) check(cudaMemcpy(d, t.data, bytes(t), cudaMemcpyHostToDevice));
            inputs_.push_back(d);
        }
        for (int i = 0; i < c_->n_outputs && ok_; ++i) {
            void* d = alloc(bytes(c_->outputs[i]));
            if (d) check(cudaMemset(d, 0, bytes(c_->outputs[i])));
            outputs_.push_back(d);
        }
    }
    ~Session() {
        for (void* p : allocations_) cudaFree(p);
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
        if (stream_) cudaStreamDestroy(stream_);
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    bool ok() const { return ok_; }
    int status() const { return FERRY_OPCHECK_ERROR; }  // what a failed session returns
    cudaStream_t stream() const { return stream_; }
    ferry_dtype dtype() const { return c_->dtype; }

    template <class T>
    T* in(const char* name) { return static_cast<T*>(find(name, true)); }
    template <class T>
    T* out(const char* name) { return static_cast<T*>(find(name, false)); }
    const ferry_tensor* input(const char* name) const { return ferry_opcheck_input(c_, name); }
    double attr(const char* name, double fallback) const { return ferry_opcheck_attr(c_, name, fallback); }
    int dim(const char* name) const { return (int)ferry_opcheck_attr(c_, name, -1); }
    void* workspace(size_t bytes) { return alloc(bytes); }

    int unsupported(const char* why) {
        std::snprintf(c_->error, sizeof c_->error, "%s", why);
        return FERRY_OPCHECK_UNSUPPORTED;
    }
    // A failed session keeps the CUDA error it met (the entry's own complaint would hide it).
    int error(const char* why) {
        if (ok_) std::snprintf(c_->error, sizeof c_->error, "%s", why);
        return FERRY_OPCHECK_ERROR;
    }

    // prepare() once, op() once and the outputs copied back, op() `warmup` times, then op()
    // `repeats` times, each between two events on the session's stream. op returns a reason to
    // refuse the case (nothing launched), or null.
    int run(const std::function<const char*(cudaStream_t)>& op,
            const std::function<void(cudaStream_t)>& prepare = {}) {
        if (!ok_) return FERRY_OPCHECK_ERROR;
        if (prepare) prepare(stream_);
        if (const char* why = op(stream_)) return unsupported(why);
        if (!check(cudaStreamSynchronize(stream_))) return FERRY_OPCHECK_ERROR;
        for (int i = 0; i < c_->n_outputs; ++i)
            if (!check(cudaMemcpy(c_->outputs[i].data, outputs_[i], bytes(c_->outputs[i]),
                                  cudaMemcpyDeviceToHost)))
                return FERRY_OPCHECK_ERROR;
        for (int i = 0; i < c_->warmup; ++i) op(stream_);
        for (int i = 0; i < c_->repeats; ++i) {
            check(cudaEventRecord(start_, stream_));
            op(stream_);
            check(cudaEventRecord(stop_, stream_));
            if (!check(cudaEventSynchronize(stop_))) return FERRY_OPCHECK_ERROR;
            float ms = 0.f;
            check(cudaEventElapsedTime(&ms, start_, stop_));
            c_->times_us[i] = 1000.0 * ms;
        }
        return check(cudaGetLastError()) ? FERRY_OPCHECK_OK : FERRY_OPCHECK_ERROR;
    }

private:
    static size_t bytes(const ferry_tensor& t) {
        const size_t elem = (t.dtype == FERRY_F16 || t.dtype == FERRY_BF16) ? 2
                            : (t.dtype == FERRY_I64 || t.dtype == FERRY_F64) ? 8 : 4;
        return (size_t)t.numel * elem;
    }
    bool check(cudaError_t e) {
        if (e == cudaSuccess) return true;
        if (ok_) std::snprintf(c_->error, sizeof c_->error, "CUDA: %s", cudaGetErrorString(e));
        ok_ = false;
        return false;
    }
    void* alloc(size_t n) {
        void* p = nullptr;
        if (!check(cudaMalloc(&p, n > 0 ? n : 1))) return nullptr;
        allocations_.push_back(p);
        return p;
    }
    void* find(const char* name, bool input) {
        const int n = input ? c_->n_inputs : c_->n_outputs;
        const ferry_tensor* ts = input ? c_->inputs : c_->outputs;
        const std::vector<void*>& ptrs = input ? inputs_ : outputs_;
        for (int i = 0; i < n && i < (int)ptrs.size(); ++i)
            if (std::strcmp(ts[i].name, name) == 0) return ptrs[i];
        return nullptr;
    }

    ferry_opcheck_call* c_;
    bool ok_ = true;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::vector<void*> inputs_, outputs_, allocations_;
};

}  // namespace llama_ops_opcheck
