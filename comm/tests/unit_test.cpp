// Unit tests without communication: conversions, partitioning, tuning rules, codecs.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ferry/comm/codec_wire.hpp"
#include "ferry/comm/comm.hpp"
#include "test_util.hpp"

namespace fc = ferry::comm;
using fc::test::element_bound;

TEST(Conversions, Bf16RoundsToNearestEven) {
  EXPECT_EQ(fc::float_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(fc::bf16_to_float(fc::float_to_bf16(1.0f + 1.0f / 256)), 1.0f);  // tie to even
  EXPECT_EQ(fc::bf16_to_float(fc::float_to_bf16(1.0f + 3.0f / 256)), 1.0f + 4.0f / 256);
  EXPECT_TRUE(std::isnan(fc::bf16_to_float(fc::float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(fc::bf16_to_float(fc::float_to_bf16(-INFINITY)), -INFINITY);
}

TEST(Conversions, F16MatchesExhaustiveRoundTrip) {
  // Every finite half converts to float and back to itself.
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    std::uint16_t hh = static_cast<std::uint16_t>(h);
    float f = fc::f16_to_float(hh);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(fc::f16_to_float(fc::float_to_f16(f))));
      continue;
    }
    ASSERT_EQ(fc::float_to_f16(f), hh) << h;
  }
  EXPECT_EQ(fc::f16_to_float(fc::float_to_f16(65504.0f)), 65504.0f);
  EXPECT_EQ(fc::f16_to_float(fc::float_to_f16(65520.0f)), INFINITY);
  EXPECT_EQ(fc::f16_to_float(fc::float_to_f16(std::ldexp(1.0f, -24))), std::ldexp(1.0f, -24));
  EXPECT_EQ(fc::f16_to_float(fc::float_to_f16(std::ldexp(1.0f, -26))), 0.0f);
  EXPECT_EQ(fc::f16_to_float(fc::float_to_f16(1.0f + 1.0f / 2048)), 1.0f);  // tie to even
}

TEST(Conversions, F16RelativeErrorHolds) {
  auto v = fc::test::normal_data(100000, 7, 100.0f);
  for (float x : v) {
    double err = std::fabs(static_cast<double>(fc::f16_to_float(fc::float_to_f16(x))) - x);
    ASSERT_LE(err, std::fabs(x) / 2048 + std::ldexp(1.0, -25)) << x;
  }
}

TEST(Partition, BlocksCoverCountInOrder) {
  for (std::size_t count : {0u, 1u, 5u, 7u, 64u, 1001u})
    for (int p : {1, 2, 3, 4, 7, 8}) {
      std::size_t next = 0;
      for (int i = 0; i < p; ++i) {
        auto b = fc::block_of(count, p, i);
        EXPECT_EQ(b.offset, next);
        EXPECT_LE(b.length, count / p + 1);
        next += b.length;
      }
      EXPECT_EQ(next, count);
    }
}

TEST(Tuning, LaterRulesWinAndSizesParse) {
  fc::Tuning t("allreduce:0-inf:ring#allreduce:4K-1M:recursive_doubling");
  EXPECT_EQ(t.select(fc::Collective::allreduce, 100).name, "ring");
  EXPECT_EQ(t.select(fc::Collective::allreduce, 4096).name, "recursive_doubling");
  EXPECT_EQ(t.select(fc::Collective::allreduce, 1024 * 1024).name, "ring");
  fc::Tuning d(fc::default_tuning);
  EXPECT_EQ(d.select(fc::Collective::allreduce, 64).name, "recursive_doubling");
  EXPECT_EQ(d.select(fc::Collective::allreduce, 64 << 20).name, "rsag");
}

TEST(Tuning, BadRulesAreRejectedWithTheRule) {
  EXPECT_THROW(fc::Tuning("allreduce:0-inf:nope"), fc::UsageError);
  EXPECT_THROW(fc::Tuning("allreduce:10-5:ring"), fc::UsageError);
  EXPECT_THROW(fc::Tuning("gather:0-inf:ring"), fc::UsageError);
  EXPECT_THROW(fc::Tuning("allreduce:0-1X:ring"), fc::UsageError);
  try {
    fc::Tuning("allreduce:0-inf:nope");
  } catch (const fc::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("rsag"), std::string::npos);  // lists the known names
  }
}

TEST(Tuning, TableListsEveryAlgorithm) {
  auto table = fc::algorithm_table();
  for (const auto& a : fc::algorithms()) EXPECT_NE(table.find(a.name), std::string::npos);
}

TEST(CodecSpec, ParsesAndPrints) {
  EXPECT_EQ(fc::CodecSpec::parse("int4:block=32").str(), "int4:block=32");
  EXPECT_EQ(fc::CodecSpec::parse("eb:rel=0.001,zstd=3").str(), "eb:rel=0.001,zstd=3");
  EXPECT_EQ(fc::CodecSpec::parse("zfp:tol=1e-05").str(), "zfp:tol=1e-05");
  EXPECT_THROW(fc::CodecSpec::parse("eb"), fc::UsageError);
  EXPECT_THROW(fc::CodecSpec::parse("eb:abs=1,rel=1"), fc::UsageError);
  EXPECT_THROW(fc::CodecSpec::parse("int8:tol=1"), fc::UsageError);
  EXPECT_THROW(fc::CodecSpec::parse("lz4"), fc::UsageError);
  EXPECT_THROW(fc::CodecSpec::parse("zfp:tol=-1"), fc::UsageError);
}

// Every codec on every awkward input: the per-element bound of its error model holds, NaN/Inf come
// back unchanged, n = 0 works.
class CodecRoundTrip : public ::testing::TestWithParam<const char*> {};

std::vector<std::vector<float>> awkward_inputs() {
  std::vector<std::vector<float>> in;
  in.push_back({});
  in.push_back({1.5f});
  in.push_back(fc::test::normal_data(1000, 1));
  in.push_back(fc::test::normal_data(4099, 2, 1e-3f));
  in.push_back(fc::test::gradient_data(10000, 3));
  in.push_back(std::vector<float>(777, 3.25f));  // constant
  std::vector<float> special = fc::test::normal_data(300, 4);
  special[0] = NAN;
  special[17] = INFINITY;
  special[18] = -INFINITY;
  special[100] = std::numeric_limits<float>::denorm_min();
  special[101] = -1e-40f;  // subnormal
  special[200] = 1e30f;
  in.push_back(special);
  std::vector<float> denormals(500);
  for (std::size_t i = 0; i < denormals.size(); ++i) denormals[i] = static_cast<float>(i) * 1e-42f * (i % 2 ? 1 : -1);
  in.push_back(denormals);
  std::vector<float> zeros(130, 0.0f);
  in.push_back(zeros);
  return in;
}

TEST_P(CodecRoundTrip, BoundHoldsOnAwkwardInputs) {
  auto spec = fc::CodecSpec::parse(GetParam());
  auto codec = fc::make_codec(spec);
  auto model = codec->error_model();
  int case_no = 0;
  for (const auto& x : awkward_inputs()) {
    ++case_no;
    std::vector<std::byte> buf(codec->max_compressed_bytes(x.size()));
    std::size_t n = codec->compress(x, buf);
    ASSERT_LE(n, buf.size());
    std::vector<float> y(x.size(), -7.0f);
    codec->decompress({buf.data(), n}, y);
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (std::isnan(x[i])) {
        EXPECT_TRUE(std::isnan(y[i])) << "case " << case_no << " i " << i;
        continue;
      }
      if (std::isinf(x[i])) {
        EXPECT_EQ(y[i], x[i]) << "case " << case_no << " i " << i;
        continue;
      }
      if (spec.kind == fc::CodecSpec::Kind::fp16 && std::fabs(x[i]) >= 65520.0f) continue;  // documented overflow
      double err = std::fabs(static_cast<double>(y[i]) - x[i]);
      ASSERT_LE(err, element_bound(model, x, i))
          << GetParam() << " case " << case_no << " i " << i << " x " << x[i] << " y " << y[i];
    }
  }
}

TEST_P(CodecRoundTrip, CorruptStreamsThrowInsteadOfCrashing) {
  auto codec = fc::make_codec(fc::CodecSpec::parse(GetParam()));
  auto x = fc::test::normal_data(1000, 9);
  std::vector<std::byte> buf(codec->max_compressed_bytes(x.size()));
  std::size_t n = codec->compress(x, buf);
  std::vector<float> y(x.size());
  EXPECT_THROW(codec->decompress({buf.data(), n / 2}, y), fc::UsageError);
  std::vector<float> wrong(x.size() + 1);
  EXPECT_THROW(codec->decompress({buf.data(), n}, wrong), fc::UsageError);
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecRoundTrip,
                         ::testing::Values("bf16", "fp16", "int8", "int4:block=32", "int2", "eb:abs=1e-3",
                                           "eb:rel=1e-4,zstd=1", "eb:abs=1e-6,block=64", "zfp:tol=1e-3",
                                           "zfp:rel=1e-5"));

TEST(Codecs, CompressionRatiosAreWhatTheFormatsPromise) {
  auto x = fc::test::normal_data(1 << 16, 11);
  auto ratio = [&](const char* spec) {
    auto c = fc::make_codec(fc::CodecSpec::parse(spec));
    std::vector<std::byte> buf(c->max_compressed_bytes(x.size()));
    return 4.0 * x.size() / c->compress(x, buf);
  };
  EXPECT_NEAR(ratio("bf16"), 2.0, 0.01);
  EXPECT_GT(ratio("int8"), 3.7);
  EXPECT_GT(ratio("int4"), 6.5);
  EXPECT_GT(ratio("int2"), 10.0);
  EXPECT_GT(ratio("eb:abs=1e-2"), 3.0);
  EXPECT_GT(ratio("zfp:tol=1e-2"), 2.0);
}

TEST(ErrorFeedback, ResidualCarriesWhatCompressionLost) {
  // Compressing the same gradient K times with feedback: the running sum of what was sent stays
  // within one compression error of K * g, instead of drifting by K errors.
  auto codec = fc::make_codec(fc::CodecSpec::parse("int2"));
  auto g = fc::test::normal_data(2048, 5);
  std::vector<float> residual(g.size(), 0.0f), total(g.size(), 0.0f);
  const int K = 50;
  for (int k = 0; k < K; ++k) {
    std::vector<float> x = g;
    fc::apply_error_feedback(*codec, x, residual);
    for (std::size_t i = 0; i < g.size(); ++i) total[i] += x[i];
  }
  double worst = 0, without = 0;
  std::vector<float> once = g;
  std::vector<float> zero(g.size(), 0.0f);
  fc::apply_error_feedback(*codec, once, zero);
  for (std::size_t i = 0; i < g.size(); ++i) {
    // total + residual == K * g up to float rounding of the running sums
    EXPECT_NEAR(total[i] + residual[i], K * g[i], 1e-3 * K * (1 + std::fabs(g[i])));
    worst = std::max(worst, std::fabs(static_cast<double>(total[i]) - K * g[i]));
    without = std::max(without, K * std::fabs(static_cast<double>(once[i]) - g[i]));
  }
  EXPECT_LT(worst, without / 5);
}

// The stream formats of codec_wire.hpp are what the CPU codecs write (the GPU codecs share them:
// the GPU benchmark checks its int8 stream against these same bytes).
namespace {
template <class T>
T read_at(const std::vector<std::byte>& b, std::size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}
}  // namespace

TEST(Wire, IntqStreamIsTheDocumentedLayout) {
  namespace w = fc::wire;
  // Block 4: one ordinary block, one with a NaN (raw), one short block of 2.
  const std::vector<float> x = {1.0f, -2.0f, 0.5f, 0.0f, 3.0f, NAN, 1.0f, 2.0f, 4.0f, -4.0f};
  auto c = fc::make_codec(fc::CodecSpec::parse("int8:block=4"));
  EXPECT_EQ(c->max_compressed_bytes(x.size()), w::intq_max_bytes(x.size(), 4));
  std::vector<std::byte> buf(c->max_compressed_bytes(x.size()));
  buf.resize(c->compress(x, buf));
  EXPECT_EQ(read_at<std::uint64_t>(buf, 0), x.size());
  std::size_t at = w::intq_header_bytes;
  EXPECT_EQ(read_at<float>(buf, at), 2.0f / w::intq_qmax(8));  // scale = max|x| / qmax
  EXPECT_EQ(std::to_integer<int>(buf[at + w::intq_tag_bytes + 1]), -w::intq_qmax(8) + w::intq_qmax(8));
  at += w::intq_tag_bytes + w::packed_bytes(std::size_t{4}, 8);
  EXPECT_EQ(read_at<std::uint32_t>(buf, at), w::intq_raw_tag);
  EXPECT_EQ(read_at<float>(buf, at + w::intq_tag_bytes), 3.0f);
  at += w::intq_tag_bytes + 4 * 4;
  EXPECT_EQ(read_at<float>(buf, at), 4.0f / w::intq_qmax(8));
  EXPECT_EQ(buf.size(), at + w::intq_tag_bytes + 2);
}

TEST(Wire, EbStreamIsTheDocumentedLayout) {
  namespace w = fc::wire;
  std::vector<float> x(300, 0.0f);  // blocks of 128: zeros, a NaN block, a short block
  x[130] = NAN;
  auto c = fc::make_codec(fc::CodecSpec::parse("eb:rel=1e-3"));
  std::vector<std::byte> buf(c->max_compressed_bytes(x.size()));
  buf.resize(c->compress(x, buf));
  EXPECT_EQ(std::to_integer<int>(buf[0]), 0);  // no zstd
  EXPECT_EQ(read_at<std::uint64_t>(buf, 1), x.size());
  EXPECT_EQ(read_at<double>(buf, 9), w::bound_floor);  // rel * max finite |x| = 0 is not a bound
  std::size_t at = w::eb_header_bytes;
  EXPECT_EQ(std::to_integer<int>(buf[at]), 0);  // a constant block needs zero bits
  EXPECT_EQ(read_at<float>(buf, at + 1), 0.0f);
  at += 1 + 4;
  EXPECT_EQ(std::to_integer<int>(buf[at]), w::eb_raw_width);
  at += 1 + 4 * w::eb_default_block;
  EXPECT_EQ(std::to_integer<int>(buf[at]), 0);
  EXPECT_EQ(buf.size(), at + 1 + 4);
  auto z = fc::make_codec(fc::CodecSpec::parse("eb:rel=1e-3,zstd=1"));
  std::vector<std::byte> zb(z->max_compressed_bytes(x.size()));
  z->compress(x, zb);
  EXPECT_EQ(std::to_integer<int>(zb[0]), w::eb_flag_zstd);
}

TEST(Wire, HelpersRoundTrip) {
  namespace w = fc::wire;
  for (std::int32_t q : {0, 1, -1, 2, -2, 1 << 21, -(1 << 21)}) EXPECT_EQ(w::unzigzag(w::zigzag(q)), q);
  EXPECT_EQ(w::zigzag(-1), 1u);
  EXPECT_EQ(w::packed_bytes(std::size_t{5}, 3), 2u);
  static_assert(w::eb_planar_layout(300, 128).nblocks == 3);
  static_assert(w::eb_planar_layout(300, 128).bases_at == 28);  // 25 + 3 widths, padded to 4
  static_assert(w::eb_planar_max_bytes(0, 128) == 28);          // an empty stream: the header, padded to 4
  EXPECT_EQ(w::float_min, std::numeric_limits<float>::min());
  EXPECT_EQ(w::bound_floor, static_cast<double>(std::numeric_limits<float>::min()));
}
