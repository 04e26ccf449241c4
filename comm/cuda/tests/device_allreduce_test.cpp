// Device-buffer allreduce, checked against the exact (double) sum on every rank, plus an optional
// timing run. Each rank derives every rank's data from (rank, step, index), so each can compute the
// exact sum itself.
//   mpirun -np P ferrycomm-device-test [--n N] [--bench N] [--reps R] [--out FILE.json]
//   mpirun -np 3 ferrycomm-device-test --fault frozen
//   mpirun -np G ferrycomm-device-test --sweep MAX_BYTES [--out FILE.json]
//     sizes 1 KiB, 4 KiB, ... up to MAX_BYTES: NCCL's allreduce (where every rank has its own
//     GPU) against ferry-comm's device paths in the same run, nccl-tests columns (algbw = bytes /
//     time, busbw = algbw * 2(P-1)/P) and, for lossy codecs, the max error relative to max|sum|.
// Exit 0: all checks passed on every rank; 1: a check failed; 77: no CUDA device (skipped).
// --fault frozen: after a healthy gpu-int8 allreduce rank 1 stops (SIGSTOP); the others must raise
// CommError(timeout) naming it within the 2 s deadline (+ slack); rank 0 prints DEVICE-FAULT-PASS
// or DEVICE-FAULT-FAIL and the job is aborted (the stopped rank never finalizes).
#include <mpi.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "../../tests/survivor_verdict.hpp"
#include "ferry/comm/comm.hpp"
#include "ferry/comm/cuda/codecs.hpp"
#include "ferry/comm/cuda/device.hpp"

namespace fc = ferry::comm;
namespace fcc = ferry::comm::cuda;

namespace {

struct SweepDone {};

float value(int rank, int step, std::size_t i) {
  // smooth signal with a scale that changes every 4096 elements over 4 decades, rank- and step-dependent
  const double scale = std::pow(10.0, -static_cast<double>((i / 4096 * 2654435761u + rank * 7 + step * 13) % 5));
  return static_cast<float>(scale * std::sin(0.001 * static_cast<double>(i) * (rank + 1) + step + 0.5 * rank));
}

std::vector<float> data_of(int rank, int step, std::size_t n, bool nan) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = value(rank, step, i);
  if (nan && rank == 0 && n > 5) x[5] = std::numeric_limits<float>::quiet_NaN();
  return x;
}

double max_abs(const std::vector<float>& x) {
  double m = 0;
  for (float v : x)
    if (std::isfinite(v)) m = std::max(m, static_cast<double>(std::fabs(v)));
  return m;
}

std::uint64_t fnv(const std::vector<float>& y) {
  std::uint64_t h = 1469598103934665603ull;
  const auto* p = reinterpret_cast<const unsigned char*>(y.data());
  for (std::size_t i = 0; i < y.size() * 4; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

struct Dev {
  float* p = nullptr;
  explicit Dev(std::size_t n) { fcc::check(cudaMalloc(&p, std::max<std::size_t>(n, 1) * 4), "cudaMalloc"); }
  ~Dev() { cudaFree(p); }
  void put(const std::vector<float>& h) {
    fcc::check(cudaMemcpy(p, h.data(), h.size() * 4, cudaMemcpyHostToDevice), "copy");
  }
  std::vector<float> get(std::size_t n) const {
    std::vector<float> h(n);
    fcc::check(cudaMemcpy(h.data(), p, n * 4, cudaMemcpyDeviceToHost), "copy");
    return h;
  }
};

struct Checker {
  int rank, size;
  int failures = 0;
  std::vector<std::string> lines;
  void report(const std::string& name, bool ok, const std::string& detail) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) ++failures;
    if (rank == 0) {
      std::string l = std::string(all ? "PASS " : "FAIL ") + name + (detail.empty() ? "" : " (" + detail + ")");
      std::printf("%s\n", l.c_str());
      std::fflush(stdout);
      lines.push_back(l);
    }
  }
  // Same bytes on every rank?
  bool identical(const std::vector<float>& y) {
    std::uint64_t h = fnv(y), lo = 0, hi = 0;
    MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
  }
};

// Max |y - s| over finite s, and whether NaN positions of s are NaN in y.
std::pair<double, bool> error_of(const std::vector<float>& y, const std::vector<double>& s) {
  double e = 0;
  bool nan_ok = true;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (std::isnan(s[i])) {
      nan_ok &= std::isnan(y[i]);
      continue;
    }
    e = std::max(e, std::fabs(static_cast<double>(y[i]) - s[i]));
  }
  return {e, nan_ok};
}

// Median over `reps` runs (after one warm-up) of the slowest rank's time for an allreduce of the
// first `count` values of `host`, copied to `buf` before each run; and the path it took.
std::pair<double, std::string> time_allreduce(fcc::DeviceComm& dev, Dev& buf, const std::vector<float>& host,
                                              std::size_t count, const fcc::DeviceAllreduceOptions& o, int reps) {
  std::vector<double> t;
  std::string path;
  for (int rep = 0; rep <= reps; ++rep) {
    fcc::check(cudaMemcpy(buf.p, host.data(), count * 4, cudaMemcpyHostToDevice), "copy");
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    path = dev.allreduce(buf.p, count, o).path;
    double dt = MPI_Wtime() - t0, worst = 0;
    MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rep > 0) t.push_back(worst);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], path};
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::size_t n = (std::size_t{1} << 20) + 77, bench_n = 0, sweep_max = 0;
  int reps = 5;
  std::string out, fault;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--n") n = std::stoull(argv[i + 1]);
    else if (a == "--bench") bench_n = std::stoull(argv[i + 1]);
    else if (a == "--reps") reps = std::stoi(argv[i + 1]);
    else if (a == "--out") out = argv[i + 1];
    else if (a == "--fault") fault = argv[i + 1];
    else if (a == "--sweep") sweep_max = std::stoull(argv[i + 1]);
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    if (rank == 0) std::printf("SKIP: no CUDA device\n");
    MPI_Finalize();
    return 77;
  }
  int rc = 0;
  try {
    fcc::check(cudaSetDevice(rank % ndev), "cudaSetDevice");
    cudaStream_t stream;
    fcc::check(cudaStreamCreate(&stream), "stream");
    const double fault_timeout_s = 2.0;
    fc::CommOptions copt;
    if (!fault.empty()) copt.timeout = std::chrono::duration<double>(fault_timeout_s);
    fc::Communicator comm(MPI_COMM_WORLD, copt);
    fcc::DeviceComm dev(comm, stream);
    if (fault == "frozen") {
      Dev f(n);
      f.put(data_of(rank, 0, n, false));
      auto spec = fc::CodecSpec::parse("int8");
      fcc::DeviceAllreduceOptions o;
      o.codec = &spec;
      dev.allreduce(f.p, n, o);  // healthy first
      if (rank == 1) raise(SIGSTOP);
      int ok = 0;
      const auto t0 = std::chrono::steady_clock::now();
      try {
        dev.allreduce(f.p, n, o);
        std::printf("rank %d: no error\n", rank);
      } catch (const fc::CommError& e) {
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::string m = e.what();
        const bool names = m.find("rank(s) 1") != std::string::npos || m.find(", 1") != std::string::npos;
        ok = e.kind() == fc::CommError::Kind::timeout && waited < 3 * fault_timeout_s + 2 && names;
        std::printf("rank %d: CommError after %.2f s: %s\n", rank, waited, e.what());
      } catch (const std::exception& e) {
        std::printf("rank %d: unexpected %s\n", rank, e.what());
      }
      std::fflush(stdout);
      ferry::comm::testing::survivors_verdict(ok, 1, rank,
                                              "DEVICE-FAULT-PASS: every survivor raised a timeout naming rank 1",
                                              "DEVICE-FAULT-FAIL: not every survivor raised the expected error");
    }
    Checker ck{rank, size, 0, {}};
    const bool nccl = dev.nccl_available();
    if (sweep_max > 0) {
      struct SV {
        std::string name, spec;
        fcc::Transport t;
      };
      std::vector<SV> vs;
      if (nccl) vs.push_back({"nccl", "", fcc::Transport::nccl});
      vs.push_back({"mpi-staged", "", fcc::Transport::mpi});
      vs.push_back({"int8", "int8", fcc::Transport::automatic});
      vs.push_back({"eb:rel=1e-3", "eb:rel=1e-3", fcc::Transport::automatic});
      vs.push_back({"eb:rel=1e-5", "eb:rel=1e-5", fcc::Transport::automatic});
      if (rank == 0) {
        std::printf("ranks %d, GPUs visible %d, NCCL %s%s\n", size, ndev,
                    nccl ? "up" : "unavailable: ", nccl ? "" : dev.nccl_reason().c_str());
        std::printf("%12s %-12s %-10s %10s %10s %10s %10s\n", "bytes", "variant", "path", "time_us", "algbw_GBs",
                    "busbw_GBs", "max_rel_err");
      }
      std::string js = "[";
      const std::size_t max_n = sweep_max / 4;
      Dev a(max_n), ref(max_n);
      std::vector<float> h = data_of(rank, 11, max_n, false);
      bool first = true;
      for (std::size_t bytes = 1024; bytes <= sweep_max; bytes *= 4) {
        const std::size_t cnt = bytes / 4;
        std::vector<float> yref;
        for (auto& v : vs) {
          fc::CodecSpec spec = v.spec.empty() ? fc::CodecSpec{} : fc::CodecSpec::parse(v.spec);
          fcc::DeviceAllreduceOptions o;
          o.codec = v.spec.empty() ? nullptr : &spec;
          o.transport = v.t;
          const int reps = bytes <= (std::size_t{1} << 20) ? 20 : bytes <= (std::size_t{64} << 20) ? 5 : 3;
          const auto [sec, path] = time_allreduce(dev, a, h, cnt, o, reps);
          double err = -1;
          if (bytes <= (std::size_t{256} << 20)) {
            std::vector<float> y = a.get(cnt);
            if (yref.empty()) {
              yref = y;  // the first variant (NCCL, else MPI staging) is the reference sum
              err = 0;
            } else {
              double m = 0, e = 0;
              for (std::size_t i = 0; i < cnt; ++i) {
                m = std::max(m, std::fabs(static_cast<double>(yref[i])));
                e = std::max(e, std::fabs(static_cast<double>(y[i]) - yref[i]));
              }
              err = m > 0 ? e / m : e;
            }
          }
          const double algbw = bytes / sec / 1e9, busbw = algbw * 2.0 * (size - 1) / size;
          if (rank == 0) {
            std::printf("%12zu %-12s %-10s %10.1f %10.2f %10.2f %10s\n", bytes, v.name.c_str(), path.c_str(), sec * 1e6,
                        algbw, busbw, err < 0 ? "-" : fmt(err).c_str());
            std::fflush(stdout);
            char buf[320];
            std::snprintf(buf, sizeof buf,
                          "%s{\"bytes\": %zu, \"variant\": \"%s\", \"path\": \"%s\", \"time_us\": %.2f, "
                          "\"algbw_GBs\": %.3f, \"busbw_GBs\": %.3f, \"max_rel_err\": %.3g}",
                          first ? "" : ", ", bytes, v.name.c_str(), path.c_str(), sec * 1e6, algbw, busbw, err);
            js += buf;
            first = false;
          }
        }
      }
      js += "]";
      if (rank == 0 && !out.empty()) {
        std::ofstream f(out);
        f << "{\"ranks\": " << size << ", \"gpus_visible\": " << ndev << ", \"nccl\": " << (nccl ? "true" : "false")
          << ", \"sweep\": " << js << "}\n";
      }
      throw SweepDone{};  // unwinds DeviceComm and Communicator before MPI_Finalize below
    }
    if (rank == 0)
      std::printf("ranks %d, GPUs visible %d, n %zu, NCCL %s%s\n", size, ndev, n,
                  nccl ? "up" : "unavailable: ", nccl ? "" : dev.nccl_reason().c_str());

    std::vector<std::vector<float>> xs(size);
    std::vector<double> s(n, 0.0);
    double sum_max = 0;
    auto prepare = [&](int step, bool nan) {
      std::fill(s.begin(), s.end(), 0.0);
      sum_max = 0;
      for (int r = 0; r < size; ++r) {
        xs[r] = data_of(r, step, n, nan);
        sum_max += max_abs(xs[r]);
        for (std::size_t i = 0; i < n; ++i) s[i] += xs[r][i];
      }
    };
    double s_max = 0;
    auto smax = [&] {
      s_max = 0;
      for (double v : s)
        if (std::isfinite(v)) s_max = std::max(s_max, std::fabs(v));
    };
    Dev d(n), r(n);

    // Uncompressed: automatic (NCCL if up), MPI staging, and NCCL on request.
    prepare(0, false);
    smax();
    const double sum_tol = size * s_max * std::ldexp(1.0, -23) + size * sum_max * std::ldexp(1.0, -24);
    for (auto t : {fcc::Transport::automatic, fcc::Transport::mpi, fcc::Transport::nccl}) {
      const char* tn = t == fcc::Transport::automatic ? "automatic" : t == fcc::Transport::mpi ? "mpi" : "nccl";
      d.put(xs[rank]);
      if (t == fcc::Transport::nccl && !nccl) {
        bool threw = false;
        std::string what;
        try {
          fcc::DeviceAllreduceOptions o;
          o.transport = t;
          dev.allreduce(d.p, n, o);
        } catch (const fc::UsageError& e) {
          threw = true;
          what = e.what();
        }
        ck.report("none, transport nccl without NCCL throws UsageError", threw, what);
        continue;
      }
      fcc::DeviceAllreduceOptions o;
      o.transport = t;
      auto st = dev.allreduce(d.p, n, o);
      auto y = d.get(n);
      auto [e, nan_ok] = error_of(y, s);
      ck.report(std::string("none, transport ") + tn + " -> " + st.path, e <= sum_tol && nan_ok,
                "max err " + fmt(e) + " <= " + fmt(sum_tol));
      ck.report(std::string("none, transport ") + tn + ": identical on every rank", ck.identical(y), "");
    }

    // int8 on the GPU, with a NaN (raw blocks, the rebuild path) on rank 0.
    prepare(1, true);
    smax();
    {
      d.put(xs[rank]);
      auto spec = fc::CodecSpec::parse("int8");
      fcc::DeviceAllreduceOptions o;
      o.codec = &spec;
      auto st = dev.allreduce(d.p, n, o);
      auto y = d.get(n);
      auto [e, nan_ok] = error_of(y, s);
      // each contribution and the owner's sum are quantized once: <= max|block| / 254 (1 + 2^-14) each
      const double bound = (sum_max + s_max) / 254.0 * (1 + std::ldexp(1.0, -14)) + sum_tol;
      ck.report("int8 -> " + st.path, st.path == (size > 1 ? "gpu-int8" : "single-rank") && e <= bound,
                "max err " + fmt(e) + " <= " + fmt(bound));
      ck.report("int8: NaN of rank 0 is NaN in the result", nan_ok, "");
      ck.report("int8: identical on every rank", ck.identical(y), "");
    }
    // int8 with error feedback over 3 steps.
    if (size > 1) {
      auto spec = fc::CodecSpec::parse("int8");
      fcc::check(cudaMemset(r.p, 0, n * 4), "memset");
      bool ok = true, same = true;
      std::string detail;
      double res_max_prev_sum = 0;
      for (int step = 2; step < 5; ++step) {
        prepare(step, false);
        smax();
        d.put(xs[rank]);
        fcc::DeviceAllreduceOptions o;
        o.codec = &spec;
        o.residual = r.p;
        dev.allreduce(d.p, n, o);
        auto y = d.get(n);
        auto res = r.get(n);
        double local_res = max_abs(res), res_sum = 0;
        MPI_Allreduce(&local_res, &res_sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        auto [e, nan_ok] = error_of(y, s);
        const double bound =
            (sum_max + res_max_prev_sum + s_max) / 254.0 * (1 + std::ldexp(1.0, -14)) + sum_tol + res_max_prev_sum;
        const double res_bound = (max_abs(xs[rank]) + res_max_prev_sum) / 254.0 * 1.001;
        if (!(e <= bound) || !(local_res <= res_bound)) {
          ok = false;
          detail = "step " + std::to_string(step) + ": err " + fmt(e) + " (bound " + fmt(bound) + "), |r| " +
                   fmt(local_res) + " (bound " + fmt(res_bound) + ")";
        }
        same &= ck.identical(y);
        res_max_prev_sum = res_sum;
      }
      ck.report("int8 + error feedback, 3 steps: within bound, residual bounded", ok, detail);
      ck.report("int8 + error feedback: identical on every rank", same, "");
    }
    // eb, absolute and relative bounds.
    for (const char* spec_text : {"eb:abs=1e-4", "eb:rel=1e-3"}) {
      prepare(5, false);
      smax();
      d.put(xs[rank]);
      auto spec = fc::CodecSpec::parse(spec_text);
      fcc::DeviceAllreduceOptions o;
      o.codec = &spec;
      auto st = dev.allreduce(d.p, n, o);
      auto y = d.get(n);
      auto [e, nan_ok] = error_of(y, s);
      const double bound = st.end_to_end_bound + sum_tol;
      ck.report(std::string(spec_text) + " -> " + st.path, size == 1 || (st.path == "gpu-eb" && e <= bound),
                "max err " + fmt(e) + " <= bound " + fmt(st.end_to_end_bound) + " + float sums " + fmt(sum_tol));
      ck.report(std::string(spec_text) + ": identical on every rank", ck.identical(y), "");
    }
    // A codec without GPU kernels: staged to the host collective.
    {
      prepare(6, false);
      smax();
      d.put(xs[rank]);
      auto spec = fc::CodecSpec::parse("bf16");
      fcc::DeviceAllreduceOptions o;
      o.codec = &spec;
      auto st = dev.allreduce(d.p, n, o);
      auto y = d.get(n);
      auto [e, nan_ok] = error_of(y, s);
      const double bound = 2 * size * (sum_max + s_max) * std::ldexp(1.0, -8);
      ck.report("bf16 -> " + st.path, size == 1 || (st.path == "host-codec" && e <= bound),
                "max err " + fmt(e) + " <= " + fmt(bound));
    }
    // Bad input: clear local errors.
    {
      std::vector<float> host(16, 1.0f);
      bool threw = false;
      try {
        dev.allreduce(host.data(), host.size());
      } catch (const fc::UsageError&) {
        threw = true;
      }
      ck.report("host pointer is refused with UsageError", threw, "");
      threw = false;
      try {
        fcc::DeviceAllreduceOptions o;
        o.residual = r.p;
        dev.allreduce(d.p, n, o);
      } catch (const fc::UsageError&) {
        threw = true;
      }
      ck.report("residual without a lossy codec is refused with UsageError", threw, "");
    }

    // Timing: median of reps, every variant on the same data, same run.
    std::string bench_json;
    if (bench_n > 0) {
      Dev b(bench_n), br(bench_n);
      std::vector<float> h = data_of(rank, 9, bench_n, false);
      struct V {
        std::string name, spec;
        fcc::Transport t;
        bool host, ef;
      };
      std::vector<V> vs = {{"none (automatic)", "", fcc::Transport::automatic, false, false},
                           {"none (mpi-staged)", "", fcc::Transport::mpi, false, false},
                           {"int8 (GPU codec)", "int8", fcc::Transport::automatic, false, false},
                           {"int8 (host codec, staged)", "int8", fcc::Transport::automatic, true, false},
                           {"int8+ef (GPU codec)", "int8", fcc::Transport::automatic, false, true},
                           {"eb:rel=1e-3 (GPU codec)", "eb:rel=1e-3", fcc::Transport::automatic, false, false},
                           {"eb:rel=1e-3 (host codec, staged)", "eb:rel=1e-3", fcc::Transport::automatic, true, false}};
      double base_ms = 0;
      bench_json = "[";
      for (std::size_t k = 0; k < vs.size(); ++k) {
        auto& v = vs[k];
        fc::CodecSpec spec = v.spec.empty() ? fc::CodecSpec{} : fc::CodecSpec::parse(v.spec);
        fcc::DeviceAllreduceOptions o;
        o.codec = v.spec.empty() ? nullptr : &spec;
        o.transport = v.t;
        o.host_codec = v.host;
        if (v.ef) {
          fcc::check(cudaMemset(br.p, 0, bench_n * 4), "memset");
          o.residual = br.p;
        }
        const auto [sec, path] = time_allreduce(dev, b, h, bench_n, o, reps);
        const double ms = sec * 1e3;
        if (k == 1) base_ms = ms;
        if (rank == 0) {
          std::printf("BENCH %-34s path %-11s %9.3f ms\n", v.name.c_str(), path.c_str(), ms);
          char buf[256];
          std::snprintf(buf, sizeof buf, "%s{\"variant\": \"%s\", \"path\": \"%s\", \"ms\": %.4f}", k ? ", " : "",
                        v.name.c_str(), path.c_str(), ms);
          bench_json += buf;
        }
      }
      bench_json += "]";
      if (rank == 0)
        std::printf("BENCH baseline: none (mpi-staged) %.3f ms (ratios in the JSON/markdown are against it)\n",
                    base_ms);
    }
    if (rank == 0 && !out.empty()) {
      std::ofstream js(out);
      js << "{\"ranks\": " << size << ", \"gpus_visible\": " << ndev << ", \"n\": " << n
         << ", \"nccl\": " << (nccl ? "true" : "false") << ", \"nccl_reason\": \"" << dev.nccl_reason()
         << "\", \"bench_n\": " << bench_n << ", \"checks\": [";
      for (std::size_t i = 0; i < ck.lines.size(); ++i) {
        std::string l = ck.lines[i];
        for (auto& c : l)
          if (c == '"') c = '\'';
        js << (i ? ", " : "") << "\"" << l << "\"";
      }
      js << "], \"bench\": " << (bench_json.empty() ? "[]" : bench_json) << ", \"failures\": " << ck.failures << "}\n";
    }
    rc = ck.failures ? 1 : 0;
    cudaStreamDestroy(stream);
  } catch (const SweepDone&) {
    rc = 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
