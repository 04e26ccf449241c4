// ferry opcheck: dtypes, comparison, inputs, spec validation, and whole runs with a CPU operator
// library (tests/opcheck/cpu_ops.c) and, where a Python with torch exists, the PyTorch runner.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "opcheck/compare.h"
#include "opcheck/dtype.h"
#include "opcheck/inputs.h"
#include "opcheck/opcheck.h"
#include "opcheck/spec.h"
#include "report/html.h"

namespace ferry::opcheck {
namespace {

namespace fs = std::filesystem;

TEST(OpcheckDtype, Fp16RoundTripsEveryValue) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = f16_bits_to_f32(h);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(f16_bits_to_f32(f32_to_f16_bits(f))));
      continue;
    }
    ASSERT_EQ(f32_to_f16_bits(f), h) << "bits " << b;
  }
}

TEST(OpcheckDtype, RoundsToNearestEven) {
  EXPECT_EQ(f16_bits_to_f32(f32_to_f16_bits(1.0f + std::ldexp(1.0f, -11))), 1.0f);  // tie: to even
  EXPECT_EQ(f16_bits_to_f32(f32_to_f16_bits(1.0f + 3 * std::ldexp(1.0f, -11))), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(f16_bits_to_f32(f32_to_f16_bits(65519.f)), 65504.f);
  EXPECT_TRUE(std::isinf(f16_bits_to_f32(f32_to_f16_bits(65520.f))));
  EXPECT_EQ(f16_bits_to_f32(f32_to_f16_bits(std::ldexp(1.0f, -24))), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(f16_bits_to_f32(f32_to_f16_bits(std::ldexp(1.0f, -26))), 0.0f);
  EXPECT_EQ(bf16_bits_to_f32(f32_to_bf16_bits(1.0f + std::ldexp(1.0f, -8))), 1.0f);
  EXPECT_EQ(bf16_bits_to_f32(f32_to_bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8))), 1.0f + std::ldexp(1.0f, -6));
  EXPECT_TRUE(std::isnan(bf16_bits_to_f32(f32_to_bf16_bits(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(parse_dtype("bfloat16"), DType::bf16);
  EXPECT_EQ(parse_dtype("half"), DType::f16);
  EXPECT_FALSE(parse_dtype("fp8"));
}

TEST(OpcheckDtype, UlpSpacing) {
  EXPECT_EQ(ulp_spacing(DType::f32, 1.0), std::ldexp(1.0, -23));
  EXPECT_EQ(ulp_spacing(DType::f32, 1.5), std::ldexp(1.0, -23));
  EXPECT_EQ(ulp_spacing(DType::f32, -3.0), std::ldexp(1.0, -22));
  EXPECT_EQ(ulp_spacing(DType::f16, 1.0), std::ldexp(1.0, -10));
  EXPECT_EQ(ulp_spacing(DType::f16, 0.0), std::ldexp(1.0, -24));
  EXPECT_EQ(ulp_spacing(DType::bf16, 1.0), std::ldexp(1.0, -7));
  EXPECT_EQ(ulp_spacing(DType::i32, 5.0), 1.0);
}

HostTensor tensor(DType t, std::vector<double> v) {
  HostTensor h("y", t, {static_cast<std::int64_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) h.set(static_cast<std::int64_t>(i), v[i]);
  return h;
}

TEST(OpcheckCompare, TolerancesUlpsAndSpecialValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const HostTensor ref = tensor(DType::f64, {1.0, 2.0, nan, inf, 0.0});
  HostTensor got = tensor(DType::f32, {1.0, 2.0, nan, inf, 0.0});
  ErrorStats s = compare_output(ref, got, DType::f32, {});
  EXPECT_TRUE(s.pass());
  EXPECT_EQ(s.ulp_max, 0);
  got.set(1, 2.0 + 2 * std::ldexp(1.0, -22));  // 2 ulps of float at 2
  s = compare_output(ref, got, DType::f32, {});
  EXPECT_FALSE(s.pass());
  EXPECT_EQ(s.mismatches, 1);
  EXPECT_EQ(s.first_mismatch, 1);
  EXPECT_DOUBLE_EQ(s.ulp_max, 2.0);
  EXPECT_EQ(s.ulp_histogram[3], 1);  // the (1, 2] bucket
  EXPECT_TRUE(compare_output(ref, got, DType::f32, {.rtol = 1e-6, .atol = 0, .ulp = {}}).pass());
  EXPECT_TRUE(compare_output(ref, got, DType::f32, {.rtol = 0, .atol = 0, .ulp = 2}).pass());
  EXPECT_FALSE(compare_output(ref, got, DType::f32, {.rtol = 0, .atol = 0, .ulp = 1.5}).pass());
  got.set(2, 1.0);  // a number where the reference has NaN
  EXPECT_EQ(compare_output(ref, got, DType::f32, {.rtol = 1, .atol = 0, .ulp = {}}).mismatches, 1);
  got.set(2, nan);
  got.set(3, -inf);
  EXPECT_EQ(compare_output(ref, got, DType::f32, {.rtol = 1, .atol = 0, .ulp = {}}).mismatches, 1);
  const HostTensor ints = tensor(DType::i32, {3, 4, 5});
  HostTensor other = tensor(DType::i32, {3, 4, 6});
  EXPECT_FALSE(compare_output(ints, other, DType::i32, {.rtol = 1, .atol = 5, .ulp = {}}).pass());  // integers: exact
  EXPECT_THROW((void)compare_output(ints, tensor(DType::i32, {1}), DType::i32, {}), std::invalid_argument);
}

TEST(OpcheckCompare, RelativeErrorNearZeroUsesAtol) {
  const HostTensor ref = tensor(DType::f64, {1e-12, 1.0});
  const HostTensor got = tensor(DType::f64, {2e-12, 1.0});
  EXPECT_LT(compare_output(ref, got, DType::f32, {.rtol = 0, .atol = 1e-6, .ulp = {}}).max_rel, 1e-5);
}

const char* kAxpySpec = R"J({
  "name": "cpu",
  "libraries": {"cpu": {"path": "${CPU_OPS}", "prefix": "cpu_"}},
  "defaults": {"dtypes": ["fp32"], "seeds": [1, 2], "warmup": 1, "repeats": 3,
               "tolerances": {"fp32": {"rtol": 1e-6, "atol": 1e-7}}},
  "operators": [
    {"name": "axpy", "description": "y = a x + y0",
     "inputs": [{"name": "x", "shape": ["n"], "init": "uniform(-2, 2)"}, {"name": "y0", "shape": ["n"], "init": "normal(0, 1)"}],
     "outputs": [{"name": "y", "shape": ["n"]}],
     "attrs": {"a": 0.5},
     "shapes": [{"n": 1000}, {"n": 7}],
     "dtypes": ["fp32", "fp16"],
     "reference": {"library": "cpu"},
     "candidates": [{"library": "cpu", "name": "same"}, {"library": "cpu", "symbol": "cpu_axpy_sloppy", "name": "sloppy"},
                    {"library": "cpu", "symbol": "cpu_error", "name": "broken"}]}
  ]
})J";

std::map<std::string, std::string> vars() { return {{"CPU_OPS", FERRY_OPCHECK_CPU_OPS}}; }

TEST(OpcheckSpec, ParsesAndResolves) {
  const Spec s = parse_spec(kAxpySpec, "t.json", "/base", vars());
  ASSERT_EQ(s.operators.size(), 1u);
  const OperatorSpec& op = s.operators[0];
  EXPECT_EQ(op.reference.symbol, "cpu_axpy");
  EXPECT_EQ(op.reference.library, FERRY_OPCHECK_CPU_OPS);
  EXPECT_EQ(op.candidates[1].symbol, "cpu_axpy_sloppy");
  EXPECT_EQ(op.seeds, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(op.dtypes, (std::vector<DType>{DType::f32, DType::f16}));  // the operator's own over the defaults
  EXPECT_EQ(op.baseline, "cpu");
  EXPECT_EQ(op.shapes[1][0].second, 7);
  EXPECT_DOUBLE_EQ(op.tolerances.for_dtype(DType::f32).rtol, 1e-6);
  EXPECT_DOUBLE_EQ(op.tolerances.for_dtype(DType::bf16).rtol, 0);  // nothing given: exact
}

// Each bad spec is rejected before anything runs, with the place and what to do.
TEST(OpcheckSpec, BadSpecsGetClearErrors) {
  const std::string ok_op = R"J("inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
                               "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"},
                               "candidates": [{"library": "/x/lib.so", "symbol": "f"}])J";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[1, 2]", "the spec must be a JSON object"},
      {"{", "not valid JSON"},
      {R"J({"operators": []})J", "operators: must not be empty"},
      {R"J({"operater": []})J", "unknown key 'operater'; did you mean 'operators'?"},
      {R"J({"operators": [{"name": "a", )J" + ok_op + R"J(, "toleranses": {}}]})J", "did you mean 'tolerances'?"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["m"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"}, "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "operators[0] (a).inputs[0] (x).shape[0]: unknown dimension 'm' (the shapes define n)"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp8"], "reference": {"torch": "y = x"}, "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "dtypes[0]: unknown dtype 'fp8'"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "missing 'reference' (here or in 'defaults')"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"}, "candidates": [{"library": "cuda"}]}]})J",
       "'cuda' is neither a key of 'libraries' (none) nor a path"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"], "init": "gauss(0, 1)"}],
          "outputs": [{"name": "y", "shape": ["n"]}], "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"},
          "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "unknown init 'gauss(0, 1)'"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"], "init": "randint(0, vocab)"}],
          "outputs": [{"name": "y", "shape": ["n"]}], "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"},
          "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "'vocab' is neither a number nor a dimension or attr"},
      {R"J({"libraries": {"l": "${NOT_SET_ANYWHERE_42}/x.so"}, "operators": [{"name": "a", )J" + ok_op + "}]}",
       "variable ${NOT_SET_ANYWHERE_42} is not set (give --var NOT_SET_ANYWHERE_42=VALUE"},
      {R"J({"operators": [{"name": "a", )J" + ok_op + R"J(, "baseline": "sdpa"}]})J",
       "'sdpa' names no implementation of this operator"},
      {R"J({"operators": [{"name": "a", )J" + ok_op + R"J(}, {"name": "a", )J" + ok_op + "}]}",
       "operator 'a' appears twice"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "x", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "x = x"}, "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "a tensor named 'x' exists already"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}, {"m": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"}, "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "shapes[1]: defines m but shapes[0] defines n"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 0}], "dtypes": ["fp32"], "reference": {"torch": "y = x"}, "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "shapes[0].n: must be at least 1"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x", "library": "/x.so"},
          "candidates": [{"library": "/x.so", "symbol": "f"}]}]})J",
       "either 'library' (a shared library) or 'torch'"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"}, "candidates": [{"library": "/x.so"}]}]})J",
       "missing 'symbol'"},
      {R"J({"operators": [{"name": "a", )J" + ok_op + R"J(, "tolerances": {"fp16": {"rtol": -1}}}]})J",
       "must not be negative"},
      {R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}], "outputs": [{"name": "y", "shape": ["n"]}],
          "shapes": [{"n": 4}], "dtypes": ["fp32"], "reference": {"torch": "y = x"},
          "candidates": [{"torch": "y = x", "outputs": ["lse"]}]}]})J",
       "candidates[0].outputs[0]: 'lse' is not an output"},
  };
  for (const auto& [text, want] : cases) {
    try {
      (void)parse_spec(text, "bad.json", "/base");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(want), std::string::npos) << "message: " << msg << "\nwanted: " << want;
      EXPECT_NE(msg.find("bad.json: "), std::string::npos) << msg;
      EXPECT_NE(msg.find("[FRY9301]"), std::string::npos) << msg;
    }
  }
  EXPECT_THROW((void)load_spec("/nonexistent/spec.json"), std::invalid_argument);
}

TEST(OpcheckInputs, DeterministicPerSeedAndName) {
  const Spec s = parse_spec(kAxpySpec, "t.json", "/base", vars());
  const OperatorSpec& op = s.operators[0];
  const Dims dims = {{"n", 1000}};
  const HostTensor a = make_input(op, op.inputs[0], DType::f32, dims, 1);
  const HostTensor b = make_input(op, op.inputs[0], DType::f32, dims, 1);
  const HostTensor c = make_input(op, op.inputs[0], DType::f32, dims, 2);
  const HostTensor y = make_input(op, op.inputs[1], DType::f32, dims, 1);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_NE(a.bytes, c.bytes);
  EXPECT_NE(a.bytes, y.bytes);
  double lo = 1e9, hi = -1e9, mean = 0;
  for (std::int64_t i = 0; i < a.numel(); ++i)
    lo = std::min(lo, a.get(i)), hi = std::max(hi, a.get(i)), mean += y.get(i);
  EXPECT_GE(lo, -2);
  EXPECT_LT(hi, 2);
  EXPECT_LT(hi - lo, 4);
  EXPECT_GT(hi - lo, 3.9);
  EXPECT_LT(std::fabs(mean / 1000), 0.15);  // normal(0, 1)
  const HostTensor h = make_input(op, op.inputs[0], DType::f16, dims, 1);
  EXPECT_EQ(h.dtype, DType::f16);
  EXPECT_EQ(h.bytes.size(), 2000u);
  EXPECT_NEAR(h.get(5), a.get(5), 2e-3);  // the same draws, rounded to half
}

TEST(OpcheckRun, LibraryCandidatesPassFailErrorAndUnsupported) {
  const Spec s = parse_spec(kAxpySpec, "t.json", "/base", vars());
  std::vector<std::string> progress;
  const Result r = run_opcheck(s, {}, [&](const std::string& m) { progress.push_back(m); });
  ASSERT_EQ(r.operators.size(), 1u);
  const OperatorResult& op = r.operators[0];
  ASSERT_EQ(op.rows.size(), 4u);  // 2 dtypes x 2 shapes
  const CaseRow& fp32 = op.rows[0];
  EXPECT_EQ(fp32.dtype, DType::f32);
  ASSERT_EQ(fp32.impls.size(), 4u);
  EXPECT_TRUE(fp32.impls[0].reference);
  EXPECT_TRUE(fp32.impls[1].pass());
  EXPECT_EQ(fp32.impls[1].outputs[0].stats.max_abs, 0);
  EXPECT_EQ(fp32.impls[1].outputs[0].stats.count, 2000);  // two seeds of 1000
  EXPECT_EQ(fp32.impls[1].times_us.size(), 6u);           // 3 repeats per seed
  EXPECT_GE(fp32.impls[1].ratio, 0);
  EXPECT_FALSE(fp32.impls[2].pass());
  EXPECT_EQ(fp32.impls[2].status, ImplResult::Status::ok);
  EXPECT_GT(fp32.impls[2].outputs[0].stats.mismatches, 1900);
  EXPECT_EQ(fp32.impls[3].status, ImplResult::Status::error);
  EXPECT_EQ(fp32.impls[3].message, "device out of memory (simulated)");
  const CaseRow& fp16 = op.rows[2];  // nobody does fp16: unsupported is no failure, an error stays one
  EXPECT_EQ(fp16.impls[0].status, ImplResult::Status::unsupported);
  EXPECT_EQ(fp16.impls[1].status, ImplResult::Status::unsupported);
  EXPECT_EQ(fp16.impls[3].status, ImplResult::Status::error);
  EXPECT_EQ(r.checks, 12u);
  EXPECT_EQ(r.passed, 2u);
  EXPECT_EQ(r.failed, 2u);
  EXPECT_EQ(r.errors, 4u);
  EXPECT_EQ(r.unsupported, 4u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(progress.size(), 4u);

  const std::string text = to_text(r);
  EXPECT_NE(text.find("== axpy — y = a x + y0"), std::string::npos) << text;
  EXPECT_NE(text.find("FAIL"), std::string::npos);
  EXPECT_NE(text.find("elements outside rtol 1e-06"), std::string::npos) << text;
  EXPECT_NE(text.find("opcheck: 12 checks: 2 passed, 2 failed, 4 errors, 4 unsupported"), std::string::npos) << text;
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["command"], "opcheck");
  EXPECT_EQ(j["summary"]["passed"], 2);
  const auto& impl = j["operators"][0]["rows"][0]["implementations"][2];
  EXPECT_EQ(impl["name"], "sloppy");
  EXPECT_EQ(impl["pass"], false);
  EXPECT_TRUE(impl["outputs"][0].contains("first_mismatch"));
  EXPECT_EQ(j["operators"][0]["rows"][0]["shape_text"], "n=1000");

  const std::string html = report::opcheck_to_html(j);
  EXPECT_NE(html.find("<section class=\"operator\" id=\"op-axpy\">"), std::string::npos);
  EXPECT_NE(html.find("class=\"res-fail\">FAIL"), std::string::npos);
  EXPECT_NE(html.find("device out of memory (simulated)"), std::string::npos);
  EXPECT_NE(html.find("id=\"op-passed\" data-value=\"2\""), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // self-contained
}

TEST(OpcheckRun, InformationalCandidatesDoNotFailTheRun) {
  std::string spec = kAxpySpec;
  const std::string both = R"J("dtypes": ["fp32", "fp16"],)J";
  spec.replace(spec.find(both), both.size(), R"J("dtypes": ["fp32"],)J");
  const std::string sloppy = R"J({"library": "cpu", "symbol": "cpu_axpy_sloppy", "name": "sloppy"})J";
  spec.replace(spec.find(sloppy), sloppy.size(),
               R"J({"library": "cpu", "symbol": "cpu_axpy_sloppy", "name": "sloppy", "informational": true})J");
  const std::string broken = R"J(,
                    {"library": "cpu", "symbol": "cpu_error", "name": "broken"})J";
  spec.erase(spec.find(broken), broken.size());
  const Result r = run_opcheck(parse_spec(spec, "t.json", "/base", vars()), {});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.checks, 2u);
  EXPECT_EQ(r.informational, 2u);
  EXPECT_EQ(r.informational_failed, 2u);
  EXPECT_NE(to_text(r).find("sloppy (info)"), std::string::npos);
  EXPECT_EQ(to_json(r)["operators"][0]["rows"][0]["implementations"][2]["role"], "informational");
}

TEST(OpcheckRun, IntegerOutputsAndOnlyAndMissingLibrary) {
  const std::string spec = R"J({
    "libraries": {"cpu": {"path": "${CPU_OPS}", "prefix": "cpu_"}},
    "operators": [
      {"name": "argmax", "inputs": [{"name": "x", "shape": ["rows", "cols"], "init": "randint(0, 3)"}],
       "outputs": [{"name": "idx", "shape": ["rows"], "dtype": "int32"}], "shapes": [{"rows": 64, "cols": 9}],
       "dtypes": ["fp32"], "reference": {"library": "cpu"},
       "candidates": [{"library": "cpu", "name": "first"}, {"library": "cpu", "symbol": "cpu_argmax_last", "name": "last"},
                      {"library": "/nonexistent/libnothing.so", "symbol": "f"}, {"library": "cpu", "symbol": "no_such_symbol", "name": "nosym"}]},
      {"name": "other", "inputs": [{"name": "x", "shape": [3]}], "outputs": [{"name": "y", "shape": [3]}], "shapes": [{"n": 1}],
       "dtypes": ["fp16"], "reference": {"library": "cpu", "symbol": "cpu_error"}, "candidates": [{"library": "cpu", "symbol": "cpu_copy16", "name": "copy"}]}
    ]})J";
  const Spec s = parse_spec(spec, "t.json", "/base", vars());
  Options o;
  o.only = {"argmax"};
  const Result r = run_opcheck(s, o);
  ASSERT_EQ(r.operators.size(), 1u);
  const CaseRow& row = r.operators[0].rows[0];
  EXPECT_TRUE(row.impls[1].pass());
  EXPECT_FALSE(row.impls[2].pass());  // ties among 0/1/2 values pick different indices
  EXPECT_GT(row.impls[2].outputs[0].stats.mismatches, 0);
  EXPECT_EQ(row.impls[3].status, ImplResult::Status::error);
  EXPECT_NE(row.impls[3].message.find("cannot load /nonexistent/libnothing.so"), std::string::npos)
      << row.impls[3].message;
  EXPECT_NE(row.impls[4].message.find("has no symbol 'no_such_symbol'"), std::string::npos) << row.impls[4].message;
  EXPECT_EQ(r.operators[0].rows[0].impls[1].median_us, -1);  // argmax does not time itself
  o.only = {"other"};
  const Result other = run_opcheck(s, o);
  const ImplRow& copy = other.operators[0].rows[0].impls[1];
  EXPECT_EQ(copy.status, ImplResult::Status::error);
  EXPECT_EQ(copy.message, "no reference to compare with: device out of memory (simulated)");
  o.only = {"nope"};
  EXPECT_THROW((void)run_opcheck(s, o), std::invalid_argument);
}

// A Python that imports torch: $FERRY_PYTHON, python3, or Debian's /usr/bin/python3.
std::string python_with_torch() {
  std::vector<std::string> c;
  if (const char* p = std::getenv("FERRY_PYTHON")) c.emplace_back(p);
  c.emplace_back("python3");
  c.emplace_back("/usr/bin/python3");
  for (const std::string& py : c)
    if (std::system((py + " -c 'import torch, numpy' >/dev/null 2>&1").c_str()) == 0) return py;
  return "";
}

TEST(OpcheckRun, TorchReferenceAndErrors) {
  const std::string py = python_with_torch();
  if (py.empty()) GTEST_SKIP() << "no Python with torch and numpy";
  const std::string spec = R"J({
    "libraries": {"cpu": {"path": "${CPU_OPS}", "prefix": "cpu_"}},
    "defaults": {"repeats": 2, "warmup": 0},
    "operators": [
      {"name": "axpy", "inputs": [{"name": "x", "shape": ["n"]}, {"name": "y0", "shape": ["n"]}],
       "outputs": [{"name": "y", "shape": ["n"]}], "attrs": {"a": 1.5}, "shapes": [{"n": 257}], "dtypes": ["fp32"],
       "reference": {"torch": "y = a * x + y0", "upcast": "fp64", "device": "cpu"},
       "candidates": [{"library": "cpu"}, {"torch": "y = undefined_name", "name": "bad"},
                      {"torch": "y = x[:3]", "name": "short"}, {"torch": "y = (a * x.float() + y0.float())", "name": "torch32"}],
       "tolerances": {"fp32": {"atol": 5e-7, "ulp": 1}}},
      {"name": "copy16", "inputs": [{"name": "x", "shape": ["n"], "init": "normal(0, 3)"}],
       "outputs": [{"name": "y", "shape": ["n"]}, {"name": "z", "shape": ["n"]}], "shapes": [{"n": 100}], "dtypes": ["fp16", "bf16"],
       "reference": {"torch": "y = x.clone()\nz = x * 2", "setup": "assert x.dtype in (torch.float16, torch.bfloat16)"},
       "candidates": [{"library": "cpu", "outputs": ["y"]}, {"torch": "y = x.clone()", "outputs": ["y"], "name": "t_y"}]}
    ]})J";
  const Spec s = parse_spec(spec, "t.json", "/base", vars());
  Options o;
  o.runners.python = py;
  const Result r = run_opcheck(s, o);
  ASSERT_EQ(r.operators.size(), 2u);
  const CaseRow& row = r.operators[0].rows[0];
  EXPECT_EQ(row.impls[0].status, ImplResult::Status::ok) << row.impls[0].message;
  EXPECT_EQ(row.impls[0].times_us.size(), 2u);
  // float32 a*x+y0 is the fp64 result correctly rounded (fused or not, within half an ulp).
  EXPECT_TRUE(row.impls[1].pass()) << to_text(r);
  EXPECT_LE(row.impls[1].outputs[0].stats.ulp_p50, 1.0);
  EXPECT_EQ(row.impls[2].status, ImplResult::Status::error);
  EXPECT_NE(row.impls[2].message.find("NameError"), std::string::npos) << row.impls[2].message;
  EXPECT_NE(row.impls[3].message.find("has shape (3,), the spec says (257,)"), std::string::npos)
      << row.impls[3].message;
  EXPECT_TRUE(row.impls[4].pass()) << to_text(r);
  for (const CaseRow& c : r.operators[1].rows) {  // they compute y only: z is not compared
    EXPECT_TRUE(c.impls[1].pass()) << to_text(r);
    EXPECT_TRUE(c.impls[2].pass()) << to_text(r);
    EXPECT_FALSE(c.impls[1].outputs[1].compared);
  }
  EXPECT_TRUE(r.torch.is_object());
  EXPECT_FALSE(r.torch.value("torch", "").empty());
}

TEST(OpcheckRun, MissingPythonIsAnErrorNotACrash) {
  const std::string spec = R"J({"operators": [{"name": "a", "inputs": [{"name": "x", "shape": ["n"]}],
      "outputs": [{"name": "y", "shape": ["n"]}], "shapes": [{"n": 4}], "dtypes": ["fp32"],
      "reference": {"torch": "y = x"}, "candidates": [{"torch": "y = x", "name": "t2"}]}]})J";
  const Spec s = parse_spec(spec, "t.json", "/base");
  Options o;
  o.runners.python = "/nonexistent/python3";
  const Result r = run_opcheck(s, o);
  EXPECT_EQ(r.errors, 1u);
  EXPECT_NE(r.operators[0].rows[0].impls[1].message.find("cannot start '/nonexistent/python3'"), std::string::npos)
      << r.operators[0].rows[0].impls[1].message;
}

TEST(OpcheckAbi, ExampleCarriesTheSameHeader) {
  auto read = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const fs::path root = fs::path(FERRY_TEST_DATA).parent_path();
  const std::string ours = read(root / "src/opcheck/ferry_opcheck.h");
  ASSERT_FALSE(ours.empty());
  EXPECT_EQ(read(root / "examples/llama_ops/bindings/ferry_opcheck.h"), ours)
      << "examples/llama_ops/bindings/ferry_opcheck.h must be a copy of src/opcheck/ferry_opcheck.h";
}

}  // namespace
}  // namespace ferry::opcheck
