// Throughput of the GPU codecs against the device-to-device copy bandwidth measured in the same
// run, and their results against the CPU codecs (comm/src/codecs): the int8 stream byte for byte,
// decoded values and error-feedback residuals bit for bit, eb decoded values bit for bit and within
// the bound. Writes gpu_codecs.json and gpu_codecs.md to --out. Exit 1 if any check fails.
//   ferrycomm-gpu-bench [--n ELEMENTS] [--check-n ELEMENTS] [--reps R] [--out DIR]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../../src/codecs/codecs.hpp"
#include "ferry/comm/cuda/codecs.hpp"

namespace fcc = ferry::comm::cuda;
namespace cd = ferry::comm::codec_detail;

namespace {

struct Row {
  std::string name;
  double ms, gbps, ratio_to_copy, compression;
  double moved = 0, traffic_ratio = 0;  // bytes read + written by the kernels; their rate / the copy's
};

template <class T>
struct DevBuf {
  T* p = nullptr;
  explicit DevBuf(std::size_t n) { fcc::check(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
  ~DevBuf() { cudaFree(p); }
};

// Gradient-like data: normal values whose scale changes every 4096 elements over 6 decades, plus,
// when `special`, NaN, +-Inf, denormals, zeros and constant runs in a few blocks.
std::vector<float> make_data(std::size_t n, unsigned seed, bool special) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::uniform_real_distribution<float> ud(-6.0f, 0.0f);
  std::vector<float> x(n);
  float scale = 1.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4096 == 0) scale = std::pow(10.0f, ud(rng));
    x[i] = nd(rng) * scale;
  }
  if (special && n > 5000) {
    x[70] = NAN;
    x[200] = INFINITY;
    x[333] = -INFINITY;
    for (std::size_t i = 1024; i < 1088; ++i) x[i] = 1e-41f * static_cast<float>(i % 7);  // denormal block
    for (std::size_t i = 2048; i < 2304; ++i) x[i] = 0.0f;
    for (std::size_t i = 3072; i < 3200; ++i) x[i] = 0.25f;
  }
  return x;
}

template <class F>
double time_ms(int reps, F&& f) {
  std::vector<double> t;
  cudaEvent_t a, b;
  fcc::check(cudaEventCreate(&a), "event");
  fcc::check(cudaEventCreate(&b), "event");
  f();  // warm-up
  for (int r = 0; r < reps; ++r) {
    fcc::check(cudaEventRecord(a), "record");
    f();
    fcc::check(cudaEventRecord(b), "record");
    fcc::check(cudaEventSynchronize(b), "sync");
    float ms = 0;
    fcc::check(cudaEventElapsedTime(&ms, a, b), "elapsed");
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b, std::size_t* first) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], 4) != 0) {
      *first = i;
      return false;
    }
  return true;
}

struct Check {
  std::string name;
  bool ok;
  std::string detail;
};

// `tag` prefixes every check's name: the same checks run on the fast and the general kernels, with
// and without special values (with them, int8's fast compressor takes its raw-block rebuild).
std::vector<Check> validate(std::size_t n, double eb_rel, bool special, const std::string& tag) {
  std::vector<Check> out;
  fcc::Workspace ws;
  std::vector<float> x = make_data(n, 7, special);
  // int8: stream byte for byte, decode bit for bit.
  {
    auto cpu = cd::make_intq(8, 64);
    std::vector<std::byte> cs(cpu->max_compressed_bytes(n));
    std::size_t cbytes = cpu->compress(x, cs);
    std::vector<float> cy(n);
    cpu->decompress({cs.data(), cbytes}, cy);
    DevBuf<float> dx(n), dy(n);
    DevBuf<std::byte> ds(fcc::intq8_max_bytes(n));
    fcc::check(cudaMemcpy(dx.p, x.data(), n * 4, cudaMemcpyHostToDevice), "copy");
    std::size_t gbytes = fcc::intq8_compress(dx.p, nullptr, n, 64, ds.p, fcc::intq8_max_bytes(n), ws, nullptr);
    std::vector<std::byte> gs(gbytes);
    fcc::check(cudaMemcpy(gs.data(), ds.p, gbytes, cudaMemcpyDeviceToHost), "copy");
    bool same = gbytes == cbytes && std::memcmp(gs.data(), cs.data(), cbytes) == 0;
    out.push_back(
        {"int8 stream identical to CPU", same, std::to_string(gbytes) + " vs " + std::to_string(cbytes) + " bytes"});
    // Decode the CPU's stream on the GPU (the cross-device case).
    fcc::check(cudaMemcpy(ds.p, cs.data(), cbytes, cudaMemcpyHostToDevice), "copy");
    fcc::intq8_decompress(ds.p, cbytes, dy.p, n, 64, ws, nullptr);
    std::vector<float> gy(n);
    fcc::check(cudaMemcpy(gy.data(), dy.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    std::size_t at = 0;
    bool eq = same_bits(gy, cy, &at);
    out.push_back({std::string("int8 decode bit-identical to CPU") + (special ? " (raw blocks present)" : ""), eq,
                   eq ? "" : "first difference at " + std::to_string(at)});
  }
  // int8 + error feedback over 3 steps: x and residual bit for bit against apply_error_feedback's loop.
  {
    auto cpu = cd::make_intq(8, 64);
    std::vector<float> r_cpu(n, 0.0f), r_gpu(n), xs_gpu(n);
    DevBuf<float> dx(n), dr(n);
    DevBuf<std::byte> ds(fcc::intq8_max_bytes(n));
    fcc::check(cudaMemset(dr.p, 0, n * 4), "memset");
    bool ok = true;
    std::string detail;
    for (int step = 0; step < 3 && ok; ++step) {
      std::vector<float> g = make_data(n, 100 + step, special && step == 1);
      std::vector<float> xc = g;  // CPU: codec.hpp apply_error_feedback, written out
      for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(r_cpu[i])) xc[i] += r_cpu[i];
      std::vector<std::byte> cs(cpu->max_compressed_bytes(n));
      std::size_t cb = cpu->compress(xc, cs);
      std::vector<float> y(n);
      cpu->decompress({cs.data(), cb}, y);
      for (std::size_t i = 0; i < n; ++i) {
        float r = xc[i] - y[i];
        r_cpu[i] = std::isfinite(r) ? r : 0.0f;
        xc[i] = y[i];
      }
      fcc::check(cudaMemcpy(dx.p, g.data(), n * 4, cudaMemcpyHostToDevice), "copy");
      fcc::intq8_compress(dx.p, dr.p, n, 64, ds.p, fcc::intq8_max_bytes(n), ws, nullptr);
      fcc::check(cudaMemcpy(xs_gpu.data(), dx.p, n * 4, cudaMemcpyDeviceToHost), "copy");
      fcc::check(cudaMemcpy(r_gpu.data(), dr.p, n * 4, cudaMemcpyDeviceToHost), "copy");
      std::size_t at = 0;
      if (!same_bits(xs_gpu, xc, &at))
        ok = false, detail = "step " + std::to_string(step) + ": x differs at " + std::to_string(at);
      else if (!same_bits(r_gpu, r_cpu, &at))
        ok = false, detail = "step " + std::to_string(step) + ": residual differs at " + std::to_string(at);
    }
    out.push_back({"int8+ef x and residual bit-identical to CPU over 3 steps", ok, detail});
    {  // update_x = false: same stream and residual as with write-back
      std::vector<float> g = make_data(n, 300, special);
      DevBuf<float> r1(n), r2(n), x1(n), x2(n);
      DevBuf<std::byte> s1(fcc::intq8_max_bytes(n)), s2(fcc::intq8_max_bytes(n));
      std::vector<float> r0 = make_data(n, 301, false);
      for (float& v : r0) v *= 1e-3f;
      for (auto* b : {&x1, &x2}) fcc::check(cudaMemcpy(b->p, g.data(), n * 4, cudaMemcpyHostToDevice), "copy");
      for (auto* b : {&r1, &r2}) fcc::check(cudaMemcpy(b->p, r0.data(), n * 4, cudaMemcpyHostToDevice), "copy");
      std::size_t c1 = fcc::intq8_compress(x1.p, r1.p, n, 64, s1.p, fcc::intq8_max_bytes(n), ws, nullptr, true);
      std::size_t c2 = fcc::intq8_compress(x2.p, r2.p, n, 64, s2.p, fcc::intq8_max_bytes(n), ws, nullptr, false);
      std::vector<std::byte> h1(c1), h2(c2);
      std::vector<float> q1(n), q2(n);
      fcc::check(cudaMemcpy(h1.data(), s1.p, c1, cudaMemcpyDeviceToHost), "copy");
      fcc::check(cudaMemcpy(h2.data(), s2.p, c2, cudaMemcpyDeviceToHost), "copy");
      fcc::check(cudaMemcpy(q1.data(), r1.p, n * 4, cudaMemcpyDeviceToHost), "copy");
      fcc::check(cudaMemcpy(q2.data(), r2.p, n * 4, cudaMemcpyDeviceToHost), "copy");
      std::size_t at = 0;
      const bool same = c1 == c2 && std::memcmp(h1.data(), h2.data(), c1) == 0 && same_bits(q1, q2, &at);
      out.push_back({"int8+ef without writing x back: same stream and residual", same, ""});
    }
  }
  // eb: decoded values bit for bit (same base, q, raw decisions) and within e.
  {
    DevBuf<float> dx(n), dy(n);
    DevBuf<std::byte> ds(fcc::eb_max_bytes(n));
    fcc::check(cudaMemcpy(dx.p, x.data(), n * 4, cudaMemcpyHostToDevice), "copy");
    std::size_t gbytes = fcc::eb_compress(dx.p, n, 0.0, eb_rel, 128, ds.p, fcc::eb_max_bytes(n), ws, nullptr);
    fcc::eb_decompress(ds.p, gbytes, dy.p, n, ws, nullptr);
    std::vector<float> gy(n);
    fcc::check(cudaMemcpy(gy.data(), dy.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    double e;
    fcc::check(cudaMemcpy(&e, ds.p + 9, 8, cudaMemcpyDeviceToHost), "copy");
    double m = cd::max_finite_abs(x);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      bool okv =
          std::isfinite(x[i]) ? std::fabs(static_cast<double>(gy[i]) - x[i]) <= e : std::memcmp(&gy[i], &x[i], 4) == 0;
      bad += !okv;
    }
    out.push_back({"eb within bound e = rel * max|x|", bad == 0 && e == eb_rel * m,
                   "e " + std::to_string(e) + ", violations " + std::to_string(bad)});
#ifdef FERRY_GPU_BENCH_CPU_EB
    auto cpu = cd::make_eb(0.0, eb_rel, 128, 0);
    std::vector<std::byte> cs(cpu->max_compressed_bytes(n));
    std::size_t cbytes = cpu->compress(x, cs);
    std::vector<float> cy(n);
    cpu->decompress({cs.data(), cbytes}, cy);
    std::size_t at = 0;
    bool eq = same_bits(gy, cy, &at);
    out.push_back({"eb decode bit-identical to CPU", eq,
                   (eq ? std::string() : "first difference at " + std::to_string(at) + "; ") + "GPU " +
                       std::to_string(gbytes) + " bytes, CPU " + std::to_string(cbytes)});
#else
    out.push_back({"eb decode bit-identical to CPU", true, "not compared: built without zstd.h (CPU eb codec)"});
#endif
  }
  // Streams at odd device addresses (as when several are packed back to back): same values.
  {
    DevBuf<float> dx(n), dy(n), dz(n);
    DevBuf<std::byte> ds(fcc::eb_max_bytes(n) + fcc::intq8_max_bytes(n) + 16);
    fcc::check(cudaMemcpy(dx.p, x.data(), n * 4, cudaMemcpyHostToDevice), "copy");
    std::byte* odd = ds.p + 1;
    std::size_t eb_bytes = fcc::eb_compress(dx.p, n, 0.0, eb_rel, 128, odd, fcc::eb_max_bytes(n), ws, nullptr);
    fcc::eb_decompress(odd, eb_bytes, dy.p, n, ws, nullptr);
    std::size_t eb_aligned = fcc::eb_compress(dx.p, n, 0.0, eb_rel, 128, ds.p, fcc::eb_max_bytes(n), ws, nullptr);
    fcc::eb_decompress(ds.p, eb_aligned, dz.p, n, ws, nullptr);
    std::vector<float> a(n), b(n);
    fcc::check(cudaMemcpy(a.data(), dy.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    fcc::check(cudaMemcpy(b.data(), dz.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    std::size_t at = 0;
    bool eq = eb_bytes == eb_aligned && same_bits(a, b, &at);
    std::size_t i8 = fcc::intq8_compress(dx.p, nullptr, n, 64, odd, fcc::intq8_max_bytes(n), ws, nullptr);
    fcc::intq8_decompress(odd, i8, dy.p, n, 64, ws, nullptr);
    std::size_t i8a = fcc::intq8_compress(dx.p, nullptr, n, 64, ds.p, fcc::intq8_max_bytes(n), ws, nullptr);
    fcc::intq8_decompress(ds.p, i8a, dz.p, n, 64, ws, nullptr);
    fcc::check(cudaMemcpy(a.data(), dy.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    fcc::check(cudaMemcpy(b.data(), dz.p, n * 4, cudaMemcpyDeviceToHost), "copy");
    eq = eq && i8 == i8a && same_bits(a, b, &at);
    out.push_back({"eb and int8 streams at an odd address: same bytes and values as aligned", eq,
                   eq ? "" : "differs at " + std::to_string(at)});
  }
  for (auto& c : out) c.name = tag + " " + c.name;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = std::size_t{64} << 20, check_n = (std::size_t{1} << 22) + 37;
  int reps = 20;
  std::string out_dir = ".";
  double eb_rel = 1e-3;
  bool profile = false;  // one call of each fast codec at --n and exit: for ncu
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") n = std::stoull(next());
    else if (a == "--check-n") check_n = std::stoull(next());
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--out") out_dir = next();
    else if (a == "--eb-rel") eb_rel = std::stod(next());
    else if (a == "--profile") profile = true;
    else {
      std::fprintf(stderr, "usage: %s [--n N] [--check-n N] [--reps R] [--out DIR] [--eb-rel R]\n", argv[0]);
      return 2;
    }
  }
  try {
    cudaDeviceProp prop{};
    fcc::check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("device: %s, %zu elements (%.0f MiB), %d reps (median)\n", prop.name, n, n * 4.0 / (1 << 20), reps);

    if (profile) {
      fcc::Workspace ws;
      std::vector<float> h = make_data(n, 1, false);
      DevBuf<float> x(n), r(n), y(n);
      DevBuf<std::byte> s8(fcc::intq8_max_bytes(n)), seb(fcc::eb_max_bytes(n));
      fcc::check(cudaMemcpy(x.p, h.data(), n * 4, cudaMemcpyHostToDevice), "copy");
      fcc::check(cudaMemset(r.p, 0, n * 4), "memset");
      std::size_t b8 = fcc::intq8_compress(x.p, nullptr, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr);
      fcc::intq8_decompress(s8.p, b8, y.p, n, 64, ws, nullptr);
      fcc::intq8_compress(x.p, r.p, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr);
      std::size_t beb = fcc::eb_compress(x.p, n, 0.0, eb_rel, 128, seb.p, fcc::eb_max_bytes(n), ws, nullptr);
      fcc::eb_decompress(seb.p, beb, y.p, n, ws, nullptr);
      fcc::check(cudaDeviceSynchronize(), "sync");
      return 0;
    }
    std::vector<Check> checks;
    for (bool fast : {true, false})
      for (bool special : {true, false}) {
        if (!fast && !special) continue;
        fcc::set_fast_paths(fast);
        auto c = validate(check_n, eb_rel, special,
                          std::string(fast ? "[fast" : "[general") + (special ? ", special values]" : "]"));
        checks.insert(checks.end(), c.begin(), c.end());
      }
    fcc::set_fast_paths(true);
    {  // the other kernel shapes of the sweep below, on the special values
      const fcc::Tuning def = fcc::tuning();
      fcc::Tuning alt = def;
      alt.int8_compress_units = 3 - def.int8_compress_units;
      alt.int8_decode_units = 3 - def.int8_decode_units;
      alt.eb_compress_blocks_per_warp = alt.eb_decode_blocks_per_warp = 2;
      fcc::set_tuning(alt);
      auto c = validate(check_n, eb_rel, true, "[fast, other shape, special values]");
      checks.insert(checks.end(), c.begin(), c.end());
      fcc::set_tuning(def);
    }

    fcc::Workspace ws;
    std::vector<float> h = make_data(n, 1, false);
    DevBuf<float> x(n), x2(n), r(n), y(n);
    DevBuf<std::byte> s8(fcc::intq8_max_bytes(n)), seb(fcc::eb_max_bytes(n));
    fcc::check(cudaMemcpy(x.p, h.data(), n * 4, cudaMemcpyHostToDevice), "copy");
    fcc::check(cudaMemset(r.p, 0, n * 4), "memset");
    const double bytes = n * 4.0;
    double copy_ms =
        time_ms(reps, [&] { fcc::check(cudaMemcpyAsync(x2.p, x.p, n * 4, cudaMemcpyDeviceToDevice), "memcpy"); });
    const double copy_gbps = bytes / copy_ms / 1e6;
    const double eb_abs = eb_rel * cd::max_finite_abs(h);
    std::vector<Row> rows;
    // moved: bytes the codec must read and write at least (the copy moves 2 * bytes).
    auto add = [&](const std::string& name, double ms, double compression, double moved) {
      double gbps = bytes / ms / 1e6;
      double traffic = moved / ms / 1e6 / (2 * copy_gbps);
      rows.push_back({name, ms, gbps, gbps / copy_gbps, compression, moved, traffic});
      std::printf("%-36s %9.4f ms %9.1f GB/s  %.3fx copy  traffic %.3fx copy  compression %.2f\n", name.c_str(), ms,
                  gbps, gbps / copy_gbps, traffic, compression);
    };
    std::printf("%-36s %9.4f ms %9.1f GB/s\n", "cudaMemcpy D2D (baseline)", copy_ms, copy_gbps);
    for (bool fast : {true, false}) {
      fcc::set_fast_paths(fast);
      const std::string sfx = fast ? "" : " (general kernels)";
      std::size_t b8 = 0, beb = 0;
      double ms = time_ms(
          reps, [&] { b8 = fcc::intq8_compress(x.p, nullptr, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr); });
      add("int8 compress" + sfx, ms, bytes / b8, bytes + b8);
      ms = time_ms(reps, [&] { fcc::intq8_decompress(s8.p, b8, y.p, n, 64, ws, nullptr); });
      add("int8 decompress" + sfx, ms, bytes / b8, b8 + bytes);
      // Error feedback rewrites x: it runs on x2 (values drift towards their quantized grid, same cost).
      fcc::check(cudaMemcpy(x2.p, x.p, n * 4, cudaMemcpyDeviceToDevice), "copy");
      ms = time_ms(reps, [&] { fcc::intq8_compress(x2.p, r.p, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr); });
      add("int8+ef compress" + sfx, ms, bytes / b8, 4 * bytes + b8);
      // As the device allreduce calls it: x is not needed afterwards, only the stream and r.
      ms = time_ms(reps,
                   [&] { fcc::intq8_compress(x2.p, r.p, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr, false); });
      add("int8+ef compress, x not written back" + sfx, ms, bytes / b8, 3 * bytes + b8);
      char ebname[64];
      std::snprintf(ebname, sizeof ebname, "eb:rel=%g compress", eb_rel);
      ms = time_ms(reps,
                   [&] { beb = fcc::eb_compress(x.p, n, 0.0, eb_rel, 128, seb.p, fcc::eb_max_bytes(n), ws, nullptr); });
      add(ebname + sfx, ms, bytes / beb, 2 * bytes + beb);  // rel: the max pass reads x once more
      std::snprintf(ebname, sizeof ebname, "eb:rel=%g decompress", eb_rel);
      ms = time_ms(reps, [&] { fcc::eb_decompress(seb.p, beb, y.p, n, ws, nullptr); });
      add(ebname + sfx, ms, bytes / beb, beb + bytes);
      // The same bound given as absolute (what the device allreduce passes after its own max
      // exchange): no max pass.
      ms = time_ms(reps,
                   [&] { beb = fcc::eb_compress(x.p, n, eb_abs, 0.0, 128, seb.p, fcc::eb_max_bytes(n), ws, nullptr); });
      add("eb:abs (same e) compress" + sfx, ms, bytes / beb, bytes + beb);
    }
    fcc::set_fast_paths(true);
    // Shape sweep of the fast kernels (fcc::Tuning): which unrolling / tile size the defaults use.
    struct Sweep {
      std::string knob;
      int value;
      double ms;
    };
    std::vector<Sweep> sweep;
    {
      const fcc::Tuning def = fcc::tuning();
      std::size_t b8 = fcc::intq8_compress(x.p, nullptr, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr);
      std::size_t beb = fcc::eb_compress(x.p, n, 0.0, eb_rel, 128, seb.p, fcc::eb_max_bytes(n), ws, nullptr);
      for (int u : {1, 2}) {
        fcc::Tuning t = def;
        t.int8_compress_units = t.int8_decode_units = u;
        fcc::set_tuning(t);
        sweep.push_back({"int8 compress units", u, time_ms(reps, [&] {
                           fcc::intq8_compress(x.p, nullptr, n, 64, s8.p, fcc::intq8_max_bytes(n), ws, nullptr);
                         })});
        sweep.push_back({"int8 decompress units", u,
                         time_ms(reps, [&] { fcc::intq8_decompress(s8.p, b8, y.p, n, 64, ws, nullptr); })});
      }
      for (int k : {1, 2, 4, 8}) {
        fcc::Tuning t = def;
        t.eb_compress_blocks_per_warp = t.eb_decode_blocks_per_warp = k;
        fcc::set_tuning(t);
        sweep.push_back({"eb compress blocks/warp", k, time_ms(reps, [&] {
                           fcc::eb_compress(x.p, n, 0.0, eb_rel, 128, seb.p, fcc::eb_max_bytes(n), ws, nullptr);
                         })});
        sweep.push_back({"eb decompress blocks/warp", k,
                         time_ms(reps, [&] { fcc::eb_decompress(seb.p, beb, y.p, n, ws, nullptr); })});
      }
      fcc::set_tuning(def);
      for (auto& w : sweep)
        std::printf("sweep %-26s %d: %.4f ms (%.3fx copy)\n", w.knob.c_str(), w.value, w.ms, copy_ms / w.ms);
    }
    // Speed-up of the fast kernels over the general ones, same run.
    const std::size_t half = rows.size() / 2;
    for (std::size_t k = 0; k < half; ++k)
      std::printf("speed-up %-28s %.2fx\n", rows[k].name.c_str(), rows[half + k].ms / rows[k].ms);

    bool all_ok = true;
    for (auto& c : checks) {
      all_ok &= c.ok;
      std::printf("%s %s %s\n", c.ok ? "PASS" : "FAIL", c.name.c_str(), c.detail.c_str());
    }
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::ofstream js(out_dir + "/gpu_codecs.json");
    js << "{\"device\": \"" << prop.name << "\", \"date\": \"" << date << "\", \"elements\": " << n
       << ", \"reps\": " << reps << ", \"copy_ms\": " << copy_ms << ", \"copy_gbps\": " << copy_gbps
       << ", \"kernels\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
      js << (i ? ", " : "") << "{\"name\": \"" << rows[i].name << "\", \"ms\": " << rows[i].ms
         << ", \"gbps\": " << rows[i].gbps << ", \"ratio_to_copy\": " << rows[i].ratio_to_copy
         << ", \"compression\": " << rows[i].compression << ", \"bytes_moved\": " << rows[i].moved
         << ", \"traffic_ratio_to_copy\": " << rows[i].traffic_ratio << "}";
    js << "], \"checks\": [";
    for (std::size_t i = 0; i < checks.size(); ++i)
      js << (i ? ", " : "") << "{\"name\": \"" << checks[i].name << "\", \"ok\": " << (checks[i].ok ? "true" : "false")
         << ", \"detail\": \"" << checks[i].detail << "\"}";
    js << "], \"sweep\": [";
    for (std::size_t i = 0; i < sweep.size(); ++i)
      js << (i ? ", " : "") << "{\"knob\": \"" << sweep[i].knob << "\", \"value\": " << sweep[i].value
         << ", \"ms\": " << sweep[i].ms << ", \"ratio_to_copy\": " << copy_ms / sweep[i].ms << "}";
    js << "], \"all_checks_pass\": " << (all_ok ? "true" : "false") << "}\n";
    std::ofstream md(out_dir + "/gpu_codecs.md");
    md << "# GPU codecs on " << prop.name << " (" << date << ")\n\n"
       << n << " float32 (" << bytes / (1 << 20) << " MiB) of gradient-like data, median of " << reps
       << " runs. Throughput = input bytes / time; "
       << "baseline = cudaMemcpy device-to-device of the same buffer in the same run: " << copy_gbps << " GB/s. "
       << "Goal: every kernel at >= 0.5x copy. 'traffic x copy' compares the bytes each kernel must read and write "
       << "(input, output, and for error feedback the residual both ways and x written back; the eb compressor in rel mode "
       << "reads x twice: once for max|x|) per second with the copy's 2 x input bytes per second.\n\n"
       << "| kernel | ms | GB/s (input) | x copy | traffic x copy | compression |\n|---|---|---|---|---|---|\n";
    for (auto& r : rows)
      md << "| " << r.name << " | " << r.ms << " | " << r.gbps << " | " << r.ratio_to_copy << " | " << r.traffic_ratio
         << " | " << r.compression << " |\n";
    md << "\n| fast-kernel shape (ferry::comm::cuda::Tuning) | value | ms | x copy |\n|---|---|---|---|\n";
    for (auto& w : sweep)
      md << "| " << w.knob << " | " << w.value << " | " << w.ms << " | " << copy_ms / w.ms << " |\n";
    md << "\n| check against the CPU codecs (" << check_n
       << " elements; 'special values': NaN/Inf/denormal/constant blocks) | result |\n|---|---|\n";
    for (auto& c : checks)
      md << "| " << c.name << " | " << (c.ok ? "PASS" : "FAIL") << (c.detail.empty() ? "" : " (" + c.detail + ")")
         << " |\n";
    return all_ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferrycomm-gpu-bench: %s\n", e.what());
    return 1;
  }
}
