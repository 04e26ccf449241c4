// main.cpp - runs each HIP example kernel on random inputs (fixed seed),
// checks it against a CPU reference and times it with hipEvents.
//
// Output, one line per operator (same format as examples/llama_ops):
//   OP <name> max_abs_err=<x> PASS|FAIL time_us=<t>
// Exit code 0 only when every operator passed.
// Usage: hip_native_test [--quick] [--n-iter N]
// Build with -DHIP_NATIVE_NO_HIPBLAS to leave out the hipBLAS GEMM.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <hip/hip_runtime.h>

#include "common.h"
#include "kernels.h"

namespace {

uint64_t g_rng = 42;
float frand(float lo, float hi) {
    g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * ((float)(uint32_t)(g_rng >> 40) / 16777216.0f);
}

int g_failures = 0;

void report(const char* name, double err, double tol, double us) {
    const bool ok = err <= tol;
    if (!ok) ++g_failures;
    printf("OP %-14s max_abs_err=%.3e %s time_us=%.2f tol=%.1e\n", name, err, ok ? "PASS" : "FAIL",
           us, tol);
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
    double m = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs((double)a[i] - (double)b[i]);
        if (std::isnan(d)) return d;
        m = std::max(m, d);
    }
    return m;
}

template <typename F>
double time_us(hipStream_t stream, int n_iter, F launch) {
    if (n_iter <= 0) return 0.0;
    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    launch();
    HIP_CHECK(hipEventRecord(start, stream));
    for (int i = 0; i < n_iter; ++i) launch();
    HIP_CHECK(hipEventRecord(stop, stream));
    HIP_CHECK(hipEventSynchronize(stop));
    float ms = 0.f;
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    return 1000.0 * ms / n_iter;
}

template <typename T>
T* device_copy(const std::vector<T>& h, hipStream_t stream) {
    T* d = nullptr;
    HIP_CHECK(hipMalloc(&d, h.size() * sizeof(T)));
    HIP_CHECK(hipMemcpyAsync(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice, stream));
    return d;
}

template <typename T>
std::vector<T> host_copy(const T* d, size_t n) {
    std::vector<T> h(n);
    HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    int n = 1 << 20, rows = 128, cols = 1000, gm = 64, gn = 256, gk = 256, n_iter = 20;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick")) {
            n = 1 << 14;
            rows = 8;
            cols = 100;
            gm = gn = gk = 32;
            n_iter = 3;
        } else if (!strcmp(argv[i], "--n-iter") && i + 1 < argc) {
            n_iter = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: %s [--quick] [--n-iter N]\n", argv[0]);
            return 2;
        }
    }

    int ndev = 0;
    if (hipGetDeviceCount(&ndev) != hipSuccess || ndev == 0) {
        fprintf(stderr, "no GPU available\n");
        return 3;
    }
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    printf("device: %s (warpSize %d)\n", prop.name, prop.warpSize);

    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));

    std::vector<float> x(n);
    for (float& v : x) v = frand(-1.f, 1.f);
    float* d_x = device_copy(x, stream);
    float* d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(float)));

    // reduce_sum
    {
        float* d_sum = nullptr;
        HIP_CHECK(hipMalloc(&d_sum, sizeof(float)));
        HIP_CHECK(hipMemsetAsync(d_sum, 0, sizeof(float), stream));
        reduce_sum(d_x, d_sum, n, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        const float got = host_copy(d_sum, 1)[0];
        double want = 0.0;
        for (float v : x) want += v;
        const double us = time_us(stream, n_iter, [&] { reduce_sum(d_x, d_sum, n, stream); });
        report("reduce_sum", std::fabs(got - want), 1e-6 * n, us);
        HIP_CHECK(hipFree(d_sum));
    }

    // count_above (64-bit ballot)
    {
        unsigned long long* d_count = nullptr;
        HIP_CHECK(hipMalloc(&d_count, sizeof(unsigned long long)));
        HIP_CHECK(hipMemsetAsync(d_count, 0, sizeof(unsigned long long), stream));
        const float thr = 0.25f;
        count_above(d_x, d_count, n, thr, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        const unsigned long long got = host_copy(d_count, 1)[0];
        unsigned long long want = 0;
        for (float v : x) want += v > thr;
        const double us = time_us(stream, n_iter, [&] { count_above(d_x, d_count, n, thr, stream); });
        report("count_above", std::fabs((double)got - (double)want), 0.0, us);
        HIP_CHECK(hipFree(d_count));
    }

    // scale_bias (constant memory)
    {
        set_scale_bias(1.5f, -0.25f);
        scale_bias(d_x, d_y, n, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        std::vector<float> got = host_copy(d_y, n), want(n);
        for (int i = 0; i < n; ++i) want[i] = x[i] * 1.5f - 0.25f;
        const double us = time_us(stream, n_iter, [&] { scale_bias(d_x, d_y, n, stream); });
        report("scale_bias", max_abs_diff(got, want), 1e-6, us);
    }

    // row_softmax (templated kernel through HIP_KERNEL_NAME)
    {
        std::vector<float> s((size_t)rows * cols);
        for (float& v : s) v = frand(-5.f, 5.f);
        float* d_s = device_copy(s, stream);
        float* d_p = nullptr;
        HIP_CHECK(hipMalloc(&d_p, s.size() * sizeof(float)));
        row_softmax(d_s, d_p, rows, cols, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        std::vector<float> got = host_copy(d_p, s.size()), want(s.size());
        for (int r = 0; r < rows; ++r) {
            const float* xr = &s[(size_t)r * cols];
            const double m = *std::max_element(xr, xr + cols);
            double sum = 0.0;
            for (int c = 0; c < cols; ++c) sum += std::exp(xr[c] - m);
            for (int c = 0; c < cols; ++c) want[(size_t)r * cols + c] = (float)(std::exp(xr[c] - m) / sum);
        }
        const double us = time_us(stream, n_iter, [&] { row_softmax(d_s, d_p, rows, cols, stream); });
        report("row_softmax", max_abs_diff(got, want), 1e-6, us);
        HIP_CHECK(hipFree(d_s));
        HIP_CHECK(hipFree(d_p));
    }

    // segmented_scan (__shfl_up)
    {
        std::vector<int> v(n);
        for (int& e : v) e = (int)frand(0.f, 10.f);
        int* d_v = device_copy(v, stream);
        int* d_o = nullptr;
        HIP_CHECK(hipMalloc(&d_o, n * sizeof(int)));
        segmented_scan(d_v, d_o, n, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        std::vector<int> got = host_copy(d_o, n);
        double err = 0.0;
        int acc = 0;
        for (int i = 0; i < n; ++i) {
            acc = (i % kScanSegment == 0 ? 0 : acc) + v[i];
            err = std::max(err, std::fabs((double)got[i] - acc));
        }
        const double us = time_us(stream, n_iter, [&] { segmented_scan(d_v, d_o, n, stream); });
        report("segmented_scan", err, 0.0, us);
        HIP_CHECK(hipFree(d_v));
        HIP_CHECK(hipFree(d_o));
    }

#ifndef HIP_NATIVE_NO_HIPBLAS
    // sgemm_rowmajor (hipBLAS)
    {
        std::vector<float> A((size_t)gm * gk), B((size_t)gk * gn), want((size_t)gm * gn, 0.f);
        for (float& v : A) v = frand(-1.f, 1.f);
        for (float& v : B) v = frand(-1.f, 1.f);
        float* d_A = device_copy(A, stream);
        float* d_B = device_copy(B, stream);
        float* d_C = nullptr;
        HIP_CHECK(hipMalloc(&d_C, want.size() * sizeof(float)));
        sgemm_rowmajor(d_A, d_B, d_C, gm, gn, gk, stream);
        HIP_CHECK(hipStreamSynchronize(stream));
        std::vector<float> got = host_copy(d_C, want.size());
        for (int i = 0; i < gm; ++i)
            for (int k = 0; k < gk; ++k)
                for (int j = 0; j < gn; ++j) want[(size_t)i * gn + j] += A[(size_t)i * gk + k] * B[(size_t)k * gn + j];
        const double us = time_us(stream, n_iter, [&] { sgemm_rowmajor(d_A, d_B, d_C, gm, gn, gk, stream); });
        report("sgemm", max_abs_diff(got, want), 1e-5 * gk, us);
        HIP_CHECK(hipFree(d_A));
        HIP_CHECK(hipFree(d_B));
        HIP_CHECK(hipFree(d_C));
    }
#else
    (void)gm; (void)gn; (void)gk;
#endif

    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipStreamDestroy(stream));
    printf("SUMMARY %s failures=%d\n", g_failures ? "FAIL" : "PASS", g_failures);
    return g_failures ? 1 : 0;
}
