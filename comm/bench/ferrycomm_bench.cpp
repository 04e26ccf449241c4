// ferrycomm-bench: nccl-tests-style benchmark of ferry-comm allreduce (raw and compressed) against
// MPI_Allreduce measured in the same run, and of group construction against one MPI_Comm_create
// per group. Run under mpirun; rank 0 prints the tables.
//   mpirun -np 4 ferrycomm-bench -b 8 -e 64M -f 4 --codecs none,bf16,int8,eb:rel=1e-3
//   mpirun -np 8 ferrycomm-bench --groups 2x2x2,8x1x1
//   ferrycomm-bench --list
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ferry/comm/comm.hpp"

namespace fc = ferry::comm;

namespace {

struct Options {
  std::size_t min_bytes = 8, max_bytes = 64 << 20;
  double factor = 2;
  int warmup = 2, iters = 10;
  double budget_s = 2.0;  // per size and variant: fewer iterations for slow ones
  std::vector<std::string> codecs{"none", "bf16", "int8", "eb:rel=1e-3"};
  std::string algorithm;  // empty: tuned choice
  std::string data = "normal";
  std::size_t check_max_bytes = 256 << 20;
  std::vector<std::string> groups;
  int group_reps = 20;
  bool markdown = false;
};

std::size_t parse_bytes(const std::string& s) {
  double v = std::stod(s);
  char u = s.empty() ? 0 : s.back();
  if (u == 'K' || u == 'k') v *= 1024;
  if (u == 'M' || u == 'm') v *= 1024 * 1024;
  if (u == 'G' || u == 'g') v *= 1024.0 * 1024 * 1024;
  return static_cast<std::size_t>(v);
}

std::string human(std::size_t b) {
  if (b >= (1u << 30) && b % (1u << 30) == 0) return fmt::format("{}G", b >> 30);
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{}M", b >> 20);
  if (b >= (1u << 10) && b % (1u << 10) == 0) return fmt::format("{}K", b >> 10);
  return fmt::format("{}", b);
}

std::vector<float> make_data(std::size_t n, int rank, const std::string& kind) {
  std::mt19937_64 rng(1234 + rank);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(n);
  if (kind == "gradient") {  // layer-wise scales over 4 decades, like real gradients
    std::mt19937_64 layers(99);
    std::uniform_real_distribution<float> e(-4.0f, 0.0f);
    float scale = 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 65536 == 0) scale = std::pow(10.0f, e(layers));
      v[i] = d(rng) * scale;
    }
  } else {
    for (auto& x : v) x = d(rng);
  }
  return v;
}

// Times fn: warm-ups, then iterations until the budget or the iteration cap; returns the slowest
// rank's mean seconds per call.
template <class F>
double time_it(const Options& o, F&& fn) {
  for (int i = 0; i < o.warmup; ++i) fn();
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  fn();
  double first = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int iters = std::clamp(static_cast<int>(o.budget_s / std::max(first, 1e-9)), 1, o.iters);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) fn();
  double t = (MPI_Wtime() - t0) / iters;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

void run_allreduce(const Options& o, int rank, int P) {
  fc::Communicator comm(MPI_COMM_WORLD);
  auto print = [&](const std::string& s) {
    if (rank == 0) std::fputs(s.c_str(), stdout), std::fflush(stdout);
  };
  print(fmt::format("# ferrycomm-bench allreduce, {} ranks, float32 sum, data {}, algorithm {}\n", P, o.data,
                    o.algorithm.empty() ? "tuned" : o.algorithm));
  print(
      "# algbw = bytes/time, busbw = algbw*2(P-1)/P (nccl-tests), on the uncompressed size; "
      "speedup = MPI_Allreduce time / this time; relerr = max|err| / max|exact|\n");
  const char* head =
      o.markdown
          ? "| bytes | variant | algorithm | time us | algbw GB/s | busbw GB/s | ratio | max abs err | bound | relerr | speedup |\n"
            "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
          : "%10s %-22s %-18s %12s %9s %9s %7s %11s %11s %9s %8s\n";
  if (o.markdown) print(head);
  else
    print(fmt::format("{:>10} {:<22} {:<18} {:>12} {:>9} {:>9} {:>7} {:>11} {:>11} {:>9} {:>8}\n", "bytes", "variant",
                      "algorithm", "time(us)", "algbw", "busbw", "ratio", "maxabserr", "bound", "relerr", "speedup"));
  std::vector<fc::CodecSpec> specs;
  for (const auto& s : o.codecs) specs.push_back(fc::CodecSpec::parse(s));
  for (std::size_t bytes = o.min_bytes; bytes <= o.max_bytes;
       bytes = std::max(bytes + 4, static_cast<std::size_t>(bytes * o.factor))) {
    std::size_t n = bytes / 4;
    auto x = make_data(n, rank, o.data);
    std::vector<float> y(n);
    // Baseline: MPI_Allreduce on the same data in the same run.
    double t_mpi =
        time_it(o, [&] { MPI_Allreduce(x.data(), y.data(), static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); });
    double algbw = bytes / t_mpi / 1e9, busbw = algbw * 2.0 * (P - 1) / P;
    bool check = bytes <= o.check_max_bytes;
    std::vector<double> exact, abs_sum;
    double max_exact = 0, max_abs_sum = 0;
    if (check) {
      std::vector<double> xd(x.begin(), x.end()), ad(n);
      for (std::size_t i = 0; i < n; ++i) ad[i] = std::fabs(xd[i]);
      exact.resize(n);
      abs_sum.resize(n);
      MPI_Allreduce(xd.data(), exact.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(ad.data(), abs_sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (std::size_t i = 0; i < n; ++i) {
        max_exact = std::max(max_exact, std::fabs(exact[i]));
        max_abs_sum = std::max(max_abs_sum, abs_sum[i]);
      }
    }
    auto errors = [&](const std::vector<float>& out) {
      double e = 0;
      for (std::size_t i = 0; i < n; ++i) e = std::max(e, std::fabs(out[i] - exact[i]));
      return e;
    };
    auto row = [&](const std::string& variant, std::string_view alg, double t, double ratio, double err, double bound,
                   double speedup) {
      double a = bytes / t / 1e9, b = a * 2.0 * (P - 1) / P;
      std::string es = check ? fmt::format("{:.3g}", err) : "-", bs = bound >= 0 ? fmt::format("{:.3g}", bound) : "-";
      std::string rs = check && max_exact > 0 ? fmt::format("{:.2g}", err / max_exact) : "-";
      if (o.markdown)
        print(fmt::format("| {} | {} | {} | {:.1f} | {:.3f} | {:.3f} | {:.2f} | {} | {} | {} | {:.2f} |\n",
                          human(bytes), variant, alg, t * 1e6, a, b, ratio, es, bs, rs, speedup));
      else
        print(fmt::format("{:>10} {:<22} {:<18} {:>12.1f} {:>9.3f} {:>9.3f} {:>7.2f} {:>11} {:>11} {:>9} {:>8.2f}\n",
                          human(bytes), variant, alg, t * 1e6, a, b, ratio, es, bs, rs, speedup));
    };
    row("MPI_Allreduce", "open-mpi", t_mpi, 1.0, check ? errors(y) : 0, -1, 1.0);
    (void)algbw, (void)busbw;
    for (const auto& spec : specs) {
      fc::AllreduceOptions ao{.algorithm = o.algorithm, .codec = spec.lossy() ? &spec : nullptr, .residual = {}};
      fc::AllreduceStats st;
      double t =
          time_it(o, [&] { st = fc::allreduce(comm, x.data(), y.data(), n, fc::DType::f32, fc::ReduceOp::sum, ao); });
      // Compression ratio: payload bytes a rank sends uncompressed / compressed, same algorithm.
      long long sent = static_cast<long long>(st.bytes_sent), raw_sent = 0;
      {
        fc::AllreduceOptions plain{.algorithm = st.algorithm, .codec = nullptr, .residual = {}};
        std::vector<float> tmp(n);
        raw_sent = static_cast<long long>(
            fc::allreduce(comm, x.data(), tmp.data(), n, fc::DType::f32, fc::ReduceOp::sum, plain).bytes_sent);
      }
      long long totals[2] = {sent, raw_sent};
      MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
      double ratio = totals[0] > 0 ? static_cast<double>(totals[1]) / totals[0] : 1.0;
      double err = check ? errors(y) : 0, bound = -1;
      if (spec.lossy()) {
        const auto* alg = fc::find_algorithm(fc::Collective::allreduce, st.algorithm);
        auto model = fc::make_codec(spec)->error_model();
        switch (model.kind) {
          case fc::ErrorModel::Kind::absolute: bound = st.end_to_end_bound; break;
          case fc::ErrorModel::Kind::relative:
            bound = check ? (std::pow(1 + model.u, alg->relative_depth(P)) - 1) * max_abs_sum : -1;
            break;
          case fc::ErrorModel::Kind::block_relative:
            bound = check ? max_abs_sum * (std::pow(1 + 1.0 / (2.0 * model.qmax), alg->abs_error_terms(P)) - 1) : -1;
            break;
          default: break;
        }
      }
      double merr = err;
      MPI_Allreduce(MPI_IN_PLACE, &merr, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      row(spec.str(), st.algorithm, t, ratio, merr, bound, t_mpi / t);
    }
  }
}

void run_groups(const Options& o, int rank, int P) {
  fc::Communicator world(MPI_COMM_WORLD);
  auto print = [&](const std::string& s) {
    if (rank == 0) std::fputs(s.c_str(), stdout), std::fflush(stdout);
  };
  print(fmt::format("# group construction, {} ranks, median of {} builds of every group of the layout\n", P,
                    o.group_reps));
  print(
      o.markdown
          ? "| layout d x t x p | groups | naive MPI_Comm_create calls | naive ms | split calls | split ms | speedup | cached us |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
          : fmt::format("{:<12} {:>7} {:>14} {:>10} {:>8} {:>10} {:>8} {:>10}\n", "layout", "groups", "naive-calls",
                        "naive-ms", "splits", "split-ms", "speedup", "cached-us"));
  for (const auto& text : o.groups) {
    fc::Layout l;
    if (std::sscanf(text.c_str(), "%dx%dx%d", &l.data, &l.tensor, &l.pipeline) != 3 || l.size() != P) {
      print(fmt::format("skip layout {}: needs d x t x p = {}\n", text, P));
      continue;
    }
    auto median = [&](auto&& build) {
      std::vector<double> ts;
      for (int i = 0; i < o.group_reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        {
          auto g = build();
          double t = MPI_Wtime() - t0;
          MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
          ts.push_back(t);
        }  // groups freed outside the timing
      }
      std::sort(ts.begin(), ts.end());
      return ts[ts.size() / 2];
    };
    double naive = median([&] { return fc::build_groups_naive(world, l); });
    double split = median([&] { return fc::build_groups(world, l); });
    fc::GroupCache cache(world);
    cache.get(l);
    double t0 = MPI_Wtime();
    for (int i = 0; i < 1000; ++i) cache.get(l);
    double cached = (MPI_Wtime() - t0) / 1000;
    int ngroups = l.pipeline * l.tensor + l.pipeline * l.data + l.data * l.tensor;
    if (o.markdown)
      print(fmt::format("| {} | {} | {} | {:.3f} | 3 | {:.3f} | {:.2f} | {:.3f} |\n", text, ngroups, ngroups,
                        naive * 1e3, split * 1e3, naive / split, cached * 1e6));
    else
      print(fmt::format("{:<12} {:>7} {:>14} {:>10.3f} {:>8} {:>10.3f} {:>8.2f} {:>10.3f}\n", text, ngroups, ngroups,
                        naive * 1e3, 3, split * 1e3, naive / split, cached * 1e6));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"ferrycomm-bench: ferry-comm collectives vs MPI_Allreduce, and group construction"};
  std::string minb = "8", maxb = "64M", checkb = "256M";
  bool list = false;
  app.add_flag("--list", list, "print the algorithm table and exit (no MPI launch needed)");
  app.add_option("-b,--min-bytes", minb, "smallest message (K/M/G suffixes)");
  app.add_option("-e,--max-bytes", maxb, "largest message, up to 1G");
  app.add_option("-f,--factor", o.factor, "size multiplier between rows");
  app.add_option("-w,--warmup", o.warmup, "warm-up calls per size and variant");
  app.add_option("-n,--iters", o.iters, "timed calls per size and variant (at most)");
  app.add_option("--budget", o.budget_s, "seconds per size and variant; fewer iterations when slower");
  app.add_option("--codecs", o.codecs, "variants, space separated: none (uncompressed ferry-comm) or codec specs");
  app.add_option("--algorithm", o.algorithm, "allreduce algorithm (default: tuning rules)");
  app.add_option("--data", o.data, "normal or gradient")->check(CLI::IsMember({"normal", "gradient"}));
  app.add_option("--check-max-bytes", checkb, "largest size whose error is measured");
  app.add_option("--groups", o.groups, "layouts d x t x p to time instead of allreduce, e.g. 2x2x2")->delimiter(',');
  app.add_option("--group-reps", o.group_reps, "builds per layout");
  app.add_flag("--markdown", o.markdown, "print Markdown tables");
  CLI11_PARSE(app, argc, argv);
  if (list) {
    std::fputs(fc::algorithm_table().c_str(), stdout);
    std::printf("\ndefault tuning: %s\n", std::string(fc::default_tuning).c_str());
    return 0;
  }
  try {
    o.min_bytes = std::max<std::size_t>(4, parse_bytes(minb));
    o.max_bytes = parse_bytes(maxb);
    o.check_max_bytes = parse_bytes(checkb);
    for (const auto& s : o.codecs) fc::CodecSpec::parse(s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferrycomm-bench: %s\n", e.what());
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  int rc = 0;
  try {
    if (!o.groups.empty()) run_groups(o, rank, P);
    else run_allreduce(o, rank, P);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ferrycomm-bench rank %d: %s\n", rank, e.what());
    rc = 1;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
