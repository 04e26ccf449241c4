// MPI tests, run under mpirun with 2..8 ranks: every collective x algorithm x dtype x op x awkward
// count against Open MPI's own collectives, compressed allreduce against its documented bound,
// cross-rank argument checks, and group construction.
// Each test ends in a collective verdict (every rank sees the same pass/fail), so a failure on
// one rank never leaves the others waiting in the next test.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ferry/comm/comm.hpp"
#include "test_util.hpp"

namespace fc = ferry::comm;

namespace {

int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
long long global_sum(long long v) {
  long long out;
  MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

MPI_Datatype mpi_type(fc::DType t) {
  switch (t) {
    case fc::DType::f32: return MPI_FLOAT;
    case fc::DType::f64: return MPI_DOUBLE;
    case fc::DType::i8: return MPI_INT8_T;
    case fc::DType::u8: return MPI_UINT8_T;
    case fc::DType::i32: return MPI_INT32_T;
    case fc::DType::u32: return MPI_UINT32_T;
    case fc::DType::i64: return MPI_INT64_T;
    case fc::DType::u64: return MPI_UINT64_T;
    default: return MPI_DATATYPE_NULL;  // bf16/f16: no MPI type, compared through float
  }
}
MPI_Op mpi_op(fc::ReduceOp op) {
  return op == fc::ReduceOp::sum ? MPI_SUM : op == fc::ReduceOp::max ? MPI_MAX : MPI_MIN;
}

// Data as doubles (small integers for integer types so sums cannot overflow), stored as dtype.
std::vector<double> values(std::size_t n, fc::DType t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  bool is_int = t != fc::DType::f32 && t != fc::DType::f64 && t != fc::DType::bf16 && t != fc::DType::f16;
  bool is_unsigned = t == fc::DType::u8 || t == fc::DType::u32 || t == fc::DType::u64;
  std::uniform_int_distribution<int> small(is_unsigned ? 0 : -15, 15);
  std::normal_distribution<double> normal(0, 10);
  for (auto& x : v) x = is_int ? small(rng) : normal(rng);
  return v;
}

std::vector<char> store(const std::vector<double>& v, fc::DType t) {
  std::vector<char> out(v.size() * fc::dtype_size(t));
  for (std::size_t i = 0; i < v.size(); ++i) {
    char* p = out.data() + i * fc::dtype_size(t);
    auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (t) {
      case fc::DType::f32: put(static_cast<float>(v[i])); break;
      case fc::DType::f64: put(v[i]); break;
      case fc::DType::bf16: put(fc::float_to_bf16(static_cast<float>(v[i]))); break;
      case fc::DType::f16: put(fc::float_to_f16(static_cast<float>(v[i]))); break;
      case fc::DType::i8: put(static_cast<std::int8_t>(v[i])); break;
      case fc::DType::u8: put(static_cast<std::uint8_t>(v[i])); break;
      case fc::DType::i32: put(static_cast<std::int32_t>(v[i])); break;
      case fc::DType::u32: put(static_cast<std::uint32_t>(v[i])); break;
      case fc::DType::i64: put(static_cast<std::int64_t>(v[i])); break;
      case fc::DType::u64: put(static_cast<std::uint64_t>(v[i])); break;
    }
  }
  return out;
}

double load(const char* p, fc::DType t) {
  auto get = [&](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t) {
    case fc::DType::f32: return get(0.0f);
    case fc::DType::f64: return get(0.0);
    case fc::DType::bf16: return fc::bf16_to_float(get(std::uint16_t{}));
    case fc::DType::f16: return fc::f16_to_float(get(std::uint16_t{}));
    case fc::DType::i8: return get(std::int8_t{});
    case fc::DType::u8: return get(std::uint8_t{});
    case fc::DType::i32: return get(std::int32_t{});
    case fc::DType::u32: return static_cast<double>(get(std::uint32_t{}));
    case fc::DType::i64: return static_cast<double>(get(std::int64_t{}));
    case fc::DType::u64: return static_cast<double>(get(std::uint64_t{}));
  }
  return 0;
}

// Reference: MPI_Allreduce on the same stored values (through double for bf16/f16), plus
// sum_i |x_i| for the reduction-order bound of float sums.
struct Reference {
  std::vector<double> value, abs_sum;
};
Reference reference(const std::vector<char>& data, std::size_t n, fc::DType t, fc::ReduceOp op) {
  Reference ref{std::vector<double>(n), std::vector<double>(n)};
  std::vector<double> local(n), local_abs(n);
  for (std::size_t i = 0; i < n; ++i) {
    local[i] = load(data.data() + i * fc::dtype_size(t), t);
    local_abs[i] = std::fabs(local[i]);
  }
  MPI_Datatype mt = mpi_type(t);
  if (mt != MPI_DATATYPE_NULL) {
    std::vector<char> out(data.size());
    MPI_Allreduce(data.data(), out.data(), static_cast<int>(n), mt, mpi_op(op), MPI_COMM_WORLD);
    for (std::size_t i = 0; i < n; ++i) ref.value[i] = load(out.data() + i * fc::dtype_size(t), t);
  } else {
    MPI_Allreduce(local.data(), ref.value.data(), static_cast<int>(n), MPI_DOUBLE, mpi_op(op), MPI_COMM_WORLD);
  }
  MPI_Allreduce(local_abs.data(), ref.abs_sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return ref;
}

// Reduction-order tolerance: exact for integers and for max/min; for float sums both results are
// within gamma_P * sum|x| of the exact sum (16-bit types also round each partial sum).
double tolerance(fc::DType t, fc::ReduceOp op, double abs_sum, int P) {
  if (op != fc::ReduceOp::sum) return 0;
  double u = 0;
  switch (t) {
    case fc::DType::f32: u = std::ldexp(1.0, -24); break;
    case fc::DType::f64: u = std::ldexp(1.0, -53); break;
    case fc::DType::bf16: u = std::ldexp(1.0, -8); break;
    case fc::DType::f16: u = std::ldexp(1.0, -11); break;
    default: return 0;
  }
  double gamma = P * u / (1 - P * u);
  return 2 * gamma * abs_sum + (t == fc::DType::f16 ? P * std::ldexp(1.0, -25) : 0);
}

std::vector<std::size_t> awkward_counts(int P) {
  return {0,
          1,
          2,
          static_cast<std::size_t>(P - 1),
          static_cast<std::size_t>(P + 1),
          static_cast<std::size_t>(7 * P + 3),
          1000,
          4099};
}

const fc::DType all_dtypes[] = {fc::DType::f32, fc::DType::f64, fc::DType::bf16, fc::DType::f16, fc::DType::i8,
                                fc::DType::u8,  fc::DType::i32, fc::DType::u32,  fc::DType::i64, fc::DType::u64};
const fc::ReduceOp all_ops[] = {fc::ReduceOp::sum, fc::ReduceOp::max, fc::ReduceOp::min};

std::vector<std::string_view> names_of(fc::Collective c) {
  std::vector<std::string_view> out;
  for (const auto& a : fc::algorithms())
    if (a.collective == c) out.push_back(a.name);
  return out;
}

}  // namespace

TEST(Allreduce, EveryAlgorithmDtypeOpAndCountMatchesMpi) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  long long bad = 0, runs = 0;
  for (auto alg : names_of(fc::Collective::allreduce))
    for (auto t : all_dtypes)
      for (auto op : all_ops)
        for (std::size_t n : awkward_counts(P)) {
          auto data = store(values(n, t, 1000u * comm.rank() + n), t);
          auto ref = reference(data, n, t, op);
          std::vector<char> out(data.size() + 1, 0x5A);  // one guard byte
          bool in_place = (n % 2) == 1;
          if (in_place) std::memcpy(out.data(), data.data(), data.size());
          fc::allreduce(comm, in_place ? out.data() : data.data(), out.data(), n, t, op, {.algorithm = alg});
          ++runs;
          bad += out.back() != 0x5A;
          for (std::size_t i = 0; i < n; ++i) {
            double got = load(out.data() + i * fc::dtype_size(t), t);
            if (!(std::fabs(got - ref.value[i]) <= tolerance(t, op, ref.abs_sum[i], P))) {
              if (bad < 5)
                ADD_FAILURE() << alg << " " << fc::dtype_name(t) << " " << fc::op_name(op) << " n=" << n << " i=" << i
                              << " got " << got << " want " << ref.value[i];
              ++bad;
            }
          }
        }
  EXPECT_EQ(global_sum(bad), 0);
  EXPECT_EQ(runs, 3 * 10 * 3 * 8);
}

TEST(Allreduce, SelectionByTuningStringAndEnvironmentSyntax) {
  fc::Communicator comm(MPI_COMM_WORLD, {.tuning = "allreduce:0-inf:ring"});
  std::vector<float> x(100, 1.0f), y(100);
  auto stats = fc::allreduce(comm, x.data(), y.data(), x.size(), fc::DType::f32, fc::ReduceOp::sum);
  EXPECT_EQ(stats.algorithm, "ring");
  long long bad = 0;
  for (float v : y) bad += v != static_cast<float>(comm.size());
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(ReduceScatter, EveryAlgorithmMatchesMpi) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  long long bad = 0;
  for (auto alg : names_of(fc::Collective::reduce_scatter))
    for (auto t : all_dtypes)
      for (auto op : all_ops)
        for (std::size_t n : awkward_counts(P)) {
          auto data = store(values(n, t, 77u * comm.rank() + n), t);
          auto ref = reference(data, n, t, op);
          auto mine = fc::block_of(n, P, comm.rank());
          std::vector<char> out(mine.length * fc::dtype_size(t) + 1, 0x5A);
          fc::reduce_scatter(comm, data.data(), out.data(), n, t, op, alg);
          bad += out.back() != 0x5A;
          for (std::size_t i = 0; i < mine.length; ++i) {
            double got = load(out.data() + i * fc::dtype_size(t), t);
            std::size_t g = mine.offset + i;
            if (!(std::fabs(got - ref.value[g]) <= tolerance(t, op, ref.abs_sum[g], P))) ++bad;
          }
        }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(Allgather, EveryAlgorithmMatchesMpiAllgatherv) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  long long bad = 0;
  for (auto alg : names_of(fc::Collective::allgather))
    for (auto t : {fc::DType::f32, fc::DType::i8, fc::DType::f64, fc::DType::bf16})
      for (std::size_t n : awkward_counts(P)) {
        auto mine = fc::block_of(n, P, comm.rank());
        auto part = store(values(mine.length, t, 5u * comm.rank() + n), t);
        std::vector<int> counts(P), displs(P);
        const int es = static_cast<int>(fc::dtype_size(t));
        for (int r = 0; r < P; ++r) {
          counts[r] = static_cast<int>(fc::block_of(n, P, r).length) * es;
          displs[r] = static_cast<int>(fc::block_of(n, P, r).offset) * es;
        }
        std::vector<char> want(n * es + 1, 0), got(n * es + 1, 0x5A);
        want.back() = 0x5A;
        MPI_Allgatherv(part.data(), counts[comm.rank()], MPI_BYTE, want.data(), counts.data(), displs.data(), MPI_BYTE,
                       MPI_COMM_WORLD);
        fc::allgather(comm, part.data(), got.data(), n, t, alg);
        bad += got != want;
      }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(Broadcast, EveryAlgorithmAndRootMatchesMpi) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  long long bad = 0;
  for (auto alg : names_of(fc::Collective::broadcast))
    for (int root = 0; root < P; ++root)
      for (std::size_t n : awkward_counts(P)) {
        auto want = store(values(n, fc::DType::f64, 99u + n + root), fc::DType::f64);
        std::vector<char> buf(want.size(), 0);
        if (comm.rank() == root) buf = want;
        fc::broadcast(comm, buf.data(), n, fc::DType::f64, root, alg);
        bad += buf != want;
      }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(Barrier, NoRankLeavesBeforeAllArrive) {
  fc::Communicator comm(MPI_COMM_WORLD);
  // Rank 0 arrives late; everyone records when they left; nobody may leave before rank 0 arrived.
  // (system_clock, not MPI_Wtime: Open MPI counts MPI_Wtime from each process's own start.)
  auto now = [] { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); };
  double arrive = 0;
  if (comm.rank() == 0) {
    double t0 = now();
    while (now() - t0 < 0.05) {
    }
    arrive = now();
  }
  fc::barrier(comm);
  double left = now(), arrive0 = 0;
  MPI_Allreduce(&arrive, &arrive0, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(global_sum(left + 1e-6 < arrive0 ? 1 : 0), 0);  // MPI_Wtime is global on one host
}

TEST(SendRecv, RingOfMessagesAndMismatchDetection) {
  fc::Communicator comm(MPI_COMM_WORLD, {.timeout = std::chrono::seconds(20)});
  const int P = comm.size(), r = comm.rank();
  std::vector<std::int32_t> out(37, r), in(37, -1);
  if (r % 2 == 0) {
    fc::send(comm, out.data(), out.size(), fc::DType::i32, (r + 1) % P, 3);
    fc::recv(comm, in.data(), in.size(), fc::DType::i32, (r - 1 + P) % P, 3);
  } else {
    fc::recv(comm, in.data(), in.size(), fc::DType::i32, (r - 1 + P) % P, 3);
    fc::send(comm, out.data(), out.size(), fc::DType::i32, (r + 1) % P, 3);
  }
  long long bad = 0;
  for (auto v : in) bad += v != (r - 1 + P) % P;
  // Mismatch: rank 0 sends 10 floats, rank 1 expects 11: both sides throw, neither hangs.
  if (r < 2) {
    std::vector<float> buf(11);
    try {
      if (r == 0) fc::send(comm, buf.data(), 10, fc::DType::f32, 1, 9);
      else fc::recv(comm, buf.data(), 11, fc::DType::f32, 0, 9);
      ++bad;
    } catch (const fc::CommError& e) {
      bad += e.kind() != fc::CommError::Kind::mismatch;
    }
  }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(BadInput, MismatchedCountsTypesAndOpsFailOnEveryRank) {
  fc::Communicator comm(MPI_COMM_WORLD, {.timeout = std::chrono::seconds(20)});
  const int r = comm.rank();
  std::vector<double> buf(64, 1.0), out(64);
  long long bad = 0;
  auto expect_mismatch = [&](auto&& call) {
    try {
      call();
      ++bad;  // returned normally: wrong
    } catch (const fc::CommError& e) {
      bad += e.kind() != fc::CommError::Kind::mismatch;
    }
  };
  std::size_t n = r == 1 ? 63 : 64;
  expect_mismatch([&] { fc::allreduce(comm, buf.data(), out.data(), n, fc::DType::f64, fc::ReduceOp::sum); });
  fc::DType t = r == 0 ? fc::DType::f32 : fc::DType::f64;
  expect_mismatch([&] { fc::allreduce(comm, buf.data(), out.data(), 32, t, fc::ReduceOp::sum); });
  fc::ReduceOp op = r == 0 ? fc::ReduceOp::max : fc::ReduceOp::sum;
  expect_mismatch([&] { fc::allreduce(comm, buf.data(), out.data(), 32, fc::DType::f64, op); });
  expect_mismatch([&] { fc::broadcast(comm, buf.data(), 8, fc::DType::f64, r == 0 ? 1 : 0); });
  expect_mismatch([&] { fc::allgather(comm, buf.data(), out.data(), r == 0 ? 64 : 32, fc::DType::f64); });
  std::string_view alg = r == 0 ? "ring" : "rsag";
  expect_mismatch(
      [&] { fc::allreduce(comm, buf.data(), out.data(), 32, fc::DType::f64, fc::ReduceOp::sum, {.algorithm = alg}); });
  // The header check runs before any payload moves, so the communicator is still usable.
  fc::allreduce(comm, buf.data(), out.data(), 64, fc::DType::f64, fc::ReduceOp::sum);
  for (double v : out) bad += v != comm.size();
  // Local misuse is a UsageError on the rank that made it.
  try {
    fc::allreduce(comm, nullptr, out.data(), 4, fc::DType::f64, fc::ReduceOp::sum);
    ++bad;
  } catch (const fc::UsageError&) {
  }
  try {
    fc::allreduce(comm, buf.data(), out.data(), 4, fc::DType::f64, fc::ReduceOp::sum, {.algorithm = "nope"});
    ++bad;
  } catch (const fc::UsageError&) {
  }
  // Misuse on one rank only: that rank throws UsageError, the others CommError(mismatch), at once
  // rather than after the timeout.
  auto t0 = std::chrono::steady_clock::now();
  try {
    fc::allreduce(comm, r == 0 ? nullptr : buf.data(), out.data(), 4, fc::DType::f64, fc::ReduceOp::sum);
    ++bad;
  } catch (const fc::UsageError&) {
    bad += r != 0;
  } catch (const fc::CommError& e) {
    bad += r == 0 || e.kind() != fc::CommError::Kind::mismatch;
  }
  try {
    fc::broadcast(comm, buf.data(), 4, fc::DType::f64, r == 0 ? comm.size() : 0);  // root out of range on rank 0
    ++bad;
  } catch (const fc::UsageError&) {
    bad += r != 0;
  } catch (const fc::CommError& e) {
    bad += r == 0 || e.kind() != fc::CommError::Kind::mismatch;
  }
  bad += std::chrono::steady_clock::now() - t0 > std::chrono::seconds(10);
  fc::allreduce(comm, buf.data(), out.data(), 64, fc::DType::f64, fc::ReduceOp::sum);  // still usable
  for (double v : out) bad += v != comm.size();
  EXPECT_EQ(global_sum(bad), 0);
}

// Compressed allreduce: every codec x algorithm x count stays within its documented end-to-end
// bound against the exact sum, and every rank holds identical bits.
struct BoundCheck {
  long long violations = 0;
  double worst_ratio = 0;  // max error / bound
};

double codec_bound(const fc::CodecSpec& spec, const fc::Algorithm& alg, const fc::AllreduceStats& st, int P,
                   double abs_sum_i, double max_abs_sum) {
  auto model = fc::make_codec(spec)->error_model();
  double float_sums = 2 * P * std::ldexp(1.0, -24) * abs_sum_i * 1.01;
  double terms = alg.abs_error_terms(P);
  switch (model.kind) {
    case fc::ErrorModel::Kind::exact: return float_sums;
    case fc::ErrorModel::Kind::relative:
      return (std::pow(1 + model.u, alg.relative_depth(P)) - 1) * abs_sum_i * 1.01 + terms * model.abs_floor +
             float_sums;
    case fc::ErrorModel::Kind::block_relative: {
      double c = (1 + std::ldexp(1.0, -14)) / (2.0 * model.qmax);
      return max_abs_sum * (std::pow(1 + c, terms) - 1) * 1.01 + float_sums;
    }
    case fc::ErrorModel::Kind::absolute: return st.end_to_end_bound * (1 + 1e-9) + float_sums;
  }
  return 0;
}

TEST(CompressedAllreduce, EveryCodecAlgorithmAndCountWithinDocumentedBound) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  long long bad = 0;
  const char* specs[] = {"none",          "bf16",        "fp16",        "int8",
                         "int4:block=32", "int2",        "eb:abs=1e-3", "eb:rel=1e-4,zstd=1",
                         "zfp:tol=1e-3",  "zfp:rel=1e-4"};
  for (const char* s : specs) {
    auto spec = fc::CodecSpec::parse(s);
    for (auto alg_name : names_of(fc::Collective::allreduce)) {
      const fc::Algorithm& alg = *fc::find_algorithm(fc::Collective::allreduce, alg_name);
      for (std::size_t n :
           {std::size_t{0}, std::size_t{1}, std::size_t(P + 1), std::size_t{1000}, std::size_t{10007}}) {
        auto x = fc::test::normal_data(n, 31u * comm.rank() + n);
        if (n > 20 && comm.rank() == 0) x[3] = NAN;
        if (n > 20 && comm.rank() == P - 1) x[5] = INFINITY;
        if (n > 20) x[7] = std::numeric_limits<float>::denorm_min();
        std::vector<double> xd(x.begin(), x.end()), ad(n), exact(n), abs_sum(n);
        for (std::size_t i = 0; i < n; ++i) ad[i] = std::fabs(xd[i]);
        MPI_Allreduce(xd.data(), exact.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(ad.data(), abs_sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double max_abs_sum = 0;
        for (std::size_t i = 0; i < n; ++i)
          if (std::isfinite(abs_sum[i])) max_abs_sum = std::max(max_abs_sum, abs_sum[i]);
        std::vector<float> y(n, -1.0f);
        auto st = fc::allreduce(comm, x.data(), y.data(), n, fc::DType::f32, fc::ReduceOp::sum,
                                {.algorithm = alg_name, .codec = &spec});
        for (std::size_t i = 0; i < n; ++i) {
          if (std::isnan(exact[i])) {
            bad += !std::isnan(y[i]);
            continue;
          }
          if (std::isinf(exact[i])) {
            bad += y[i] != exact[i];
            continue;
          }
          double err = std::fabs(y[i] - exact[i]);
          double bound = codec_bound(spec, alg, st, P, abs_sum[i], max_abs_sum);
          if (!(err <= bound)) {
            if (bad < 5)
              ADD_FAILURE() << s << " " << alg_name << " n=" << n << " i=" << i << " err " << err << " bound " << bound;
            ++bad;
          }
        }
        // Identical bits on every rank.
        std::vector<float> y0(y);
        MPI_Bcast(y0.data(), static_cast<int>(n), MPI_FLOAT, 0, MPI_COMM_WORLD);
        bad += std::memcmp(y0.data(), y.data(), n * sizeof(float)) != 0;
      }
    }
  }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(CompressedAllreduce, ErrorFeedbackResidualIsWhatWasNotSent) {
  fc::Communicator comm(MPI_COMM_WORLD);
  const int P = comm.size();
  auto spec = fc::CodecSpec::parse("int4");
  const std::size_t n = 3001;
  auto x = fc::test::normal_data(n, 500u + comm.rank());
  std::vector<float> residual = fc::test::normal_data(n, 900u + comm.rank(), 0.01f), y(n);
  std::vector<double> sent(n), exact(n), abs_sum(n);
  std::vector<float> before = residual;
  auto st = fc::allreduce(comm, x.data(), y.data(), n, fc::DType::f32, fc::ReduceOp::sum,
                          {.algorithm = "rsag", .codec = &spec, .residual = residual});
  // What this rank contributed: x + old residual - new residual.
  for (std::size_t i = 0; i < n; ++i) sent[i] = static_cast<double>(x[i]) + before[i] - residual[i];
  std::vector<double> as(n);
  for (std::size_t i = 0; i < n; ++i) as[i] = std::fabs(sent[i]);
  MPI_Allreduce(sent.data(), exact.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(as.data(), abs_sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double mx = 0;
  for (double v : abs_sum) mx = std::max(mx, v);
  long long bad = 0;
  const auto& alg = *fc::find_algorithm(fc::Collective::allreduce, "rsag");
  double local_max = 0;
  for (std::size_t i = 0; i < n; ++i) local_max = std::max(local_max, std::fabs(static_cast<double>(x[i]) + before[i]));
  for (std::size_t i = 0; i < n; ++i) {
    double bound = codec_bound(spec, alg, st, P, abs_sum[i], mx) + 1e-5 * (1 + abs_sum[i]);
    bad += !(std::fabs(y[i] - exact[i]) <= bound);
    bad += std::fabs(residual[i]) > local_max / 14 * 1.001;  // int4: half a step of the block scale
    bad += residual[i] == before[i];                         // the residual was updated
  }
  EXPECT_EQ(global_sum(bad), 0);
}

TEST(Groups, SplitAndNaiveBuildTheSameGroups) {
  fc::Communicator world(MPI_COMM_WORLD);
  const int P = world.size();
  std::vector<fc::Layout> layouts = {{P, 1, 1}, {1, P, 1}, {1, 1, P}};
  if (P % 2 == 0) layouts.push_back({2, P / 2, 1});
  if (P == 8) layouts.push_back({2, 2, 2});
  long long bad = 0;
  for (const auto& l : layouts) {
    auto fast = fc::build_groups(world, l);
    auto slow = fc::build_groups_naive(world, l);
    auto check = [&](fc::Communicator& a, fc::Communicator& b, int expect_size, int expect_rank) {
      bad += a.size() != expect_size || b.size() != expect_size;
      bad += a.rank() != expect_rank || b.rank() != expect_rank;
      int cmp;
      MPI_Comm_compare(a.mpi(), b.mpi(), &cmp);
      bad += cmp != MPI_CONGRUENT;
      // And the group works: allreduce of world ranks equals the sum of its members' ranks.
      long long me = world.rank(), sa = 0, sb = 0;
      fc::allreduce(a, &me, &sa, 1, fc::DType::i64, fc::ReduceOp::sum);
      MPI_Allreduce(&me, &sb, 1, MPI_LONG_LONG, MPI_SUM, b.mpi());
      bad += sa != sb;
    };
    check(*fast.data, *slow.data, l.data, fast.me.data);
    check(*fast.tensor, *slow.tensor, l.tensor, fast.me.tensor);
    check(*fast.pipeline, *slow.pipeline, l.pipeline, fast.me.pipeline);
  }
  fc::GroupCache cache(world);
  const auto& g1 = cache.get({P, 1, 1});
  const auto& g2 = cache.get({P, 1, 1});
  bad += &g1 != &g2;
  try {
    fc::build_groups(world, {P + 1, 1, 1});
    ++bad;
  } catch (const fc::UsageError&) {
  }
  EXPECT_EQ(global_sum(bad), 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (world_rank() != 0) {  // one report, from rank 0; every verdict is collective anyway
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  (void)world_size;
  int rc = RUN_ALL_TESTS();
  MPI_Finalize();
  return rc;
}
