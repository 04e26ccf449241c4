// diffrun's comparison logic on crafted outputs, and its runner on tiny shell commands.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "diffrun/compare.h"
#include "diffrun/constructs.h"
#include "diffrun/diffrun.h"
#include "diffrun/launch_bisect.h"
#include "diffrun/runner.h"
#include "diffrun/suite.h"
#include "diffrun/wave64_sides.h"

namespace ferry::diffrun {
namespace {

CompareResult cmp(std::string_view ref, std::string_view port, Tolerance tol = {}) {
  CompareOptions o;
  o.tol = tol;
  return compare_outputs(ref, port, o);
}

TEST(DiffrunTokens, SplitsNumbersAndText) {
  const auto t = tokenize_line("  step 3: loss=1.5e-3, x1 -2 nan -inf 7.");
  std::vector<std::string> texts;
  std::vector<bool> nums;
  for (const Token& x : t) texts.push_back(x.text), nums.push_back(x.number);
  EXPECT_EQ(texts, (std::vector<std::string>{"step", "3", ": loss=", "1.5e-3", ", x1", "-2", "nan", "-inf", "7."}));
  EXPECT_EQ(nums, (std::vector<bool>{false, true, false, true, false, true, true, true, true}));
  EXPECT_EQ(t[1].column, 8u);
  EXPECT_TRUE(std::isnan(t[6].value));
  EXPECT_TRUE(std::isinf(t[7].value) && t[7].value < 0);
}

TEST(DiffrunTokens, CollapsesBlanks) {
  EXPECT_TRUE(cmp("a  b\t c 1\n", "a b c   1\n").equal);
  EXPECT_TRUE(cmp("x\r\ny\n", "x\ny").equal);
}

TEST(DiffrunCompare, RelativeTolerance) {
  Tolerance t;
  t.rtol = 1e-3;
  t.atol = 0;
  EXPECT_TRUE(cmp("v 1000.0\n", "v 1000.9\n", t).equal);
  const CompareResult r = cmp("v 1000.0\n", "v 1001.1\n", t);
  ASSERT_FALSE(r.equal);
  ASSERT_EQ(r.first.size(), 1u);
  EXPECT_EQ(r.first[0].kind, "number");
  EXPECT_EQ(r.first[0].line, 1u);
  EXPECT_EQ(r.first[0].ref_column, 3u);
  EXPECT_EQ(r.first[0].ref, "1000.0");
  EXPECT_EQ(r.first[0].port, "1001.1");
  EXPECT_NEAR(r.first[0].abs_err, 1.1, 1e-9);
  EXPECT_NEAR(r.first[0].rel_err, 1.1e-3, 1e-9);
}

TEST(DiffrunCompare, AbsoluteToleranceNearZero) {
  Tolerance t;
  t.rtol = 1e-6;
  t.atol = 1e-6;
  EXPECT_TRUE(cmp("0\n", "5e-7\n", t).equal);
  EXPECT_FALSE(cmp("0\n", "2e-6\n", t).equal);
  t.atol = 0;
  EXPECT_FALSE(cmp("0\n", "1e-30\n", t).equal);  // relative to 0: only exact passes
}

TEST(DiffrunCompare, Ulps) {
  EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 2.0), false), 1);
  EXPECT_EQ(ulp_distance(-0.0, 0.0, false), 0);
  EXPECT_EQ(ulp_distance(std::nextafter(0.0, -1.0), std::nextafter(0.0, 1.0), false), 2);
  EXPECT_EQ(ulp_distance(1.0, static_cast<double>(std::nextafter(1.0f, 2.0f)), true), 1);
  Tolerance t;
  t.rtol = 0;
  t.atol = 0;
  t.ulp = 2;
  t.ulp_float = true;
  // 1 + 2^-23 is one float ULP above 1; 1 + 3 * 2^-23 three.
  EXPECT_TRUE(cmp("1.0\n", "1.00000011920928955\n", t).equal);
  const CompareResult r = cmp("1.0\n", "1.00000035762786865\n", t);
  ASSERT_FALSE(r.equal);
  EXPECT_EQ(r.first[0].ulps, 3);
}

TEST(DiffrunCompare, NaNEqualsNaNOnlyWhenAsked) {
  Tolerance t;
  const CompareResult r = cmp("x nan\n", "x NaN\n", t);
  EXPECT_FALSE(r.equal);
  EXPECT_NE(r.first[0].why.find("nan-equal"), std::string::npos);
  EXPECT_TRUE(cmp("x nan\n", "x nan\n", t).equal);  // same text is always equal
  t.nan_equal = true;
  EXPECT_TRUE(cmp("x nan\n", "x -nan\n", t).equal);
  EXPECT_FALSE(cmp("x nan\n", "x 1.0\n", t).equal);
}

TEST(DiffrunCompare, InfinityMustMatchSign) {
  Tolerance t;
  t.rtol = 1;  // even a huge tolerance does not make inf close to anything
  EXPECT_TRUE(cmp("inf\n", "Infinity\n", t).equal);
  const CompareResult r = cmp("inf\n", "-inf\n", t);
  ASSERT_FALSE(r.equal);
  EXPECT_EQ(r.first[0].why, "infinities of opposite sign");
  EXPECT_FALSE(cmp("inf\n", "1e308\n", t).equal);
}

TEST(DiffrunCompare, TextDifferencesKeepTheirColumn) {
  const CompareResult r = cmp("status: ok 3\n", "status: FAIL 3\n");
  ASSERT_FALSE(r.equal);
  EXPECT_EQ(r.first[0].kind, "text");
  EXPECT_EQ(r.first[0].ref, "status: ok");
  EXPECT_EQ(r.first[0].port, "status: FAIL");
  EXPECT_EQ(r.first[0].ref_line, "status: ok 3");
}

TEST(DiffrunCompare, MissingLinesAndExtraOutput) {
  const CompareResult missing = cmp("a 1\nb 2\nc 3\n", "a 1\n");
  EXPECT_FALSE(missing.equal);
  EXPECT_EQ(missing.differences, 2u);
  EXPECT_EQ(missing.first[0].kind, "missing-line");
  EXPECT_EQ(missing.first[0].line, 2u);
  EXPECT_EQ(missing.first[0].ref_line, "b 2");
  const CompareResult extra = cmp("a 1\n", "a 1\nwarning: slow path\n");
  EXPECT_FALSE(extra.equal);
  EXPECT_EQ(extra.first[0].kind, "extra-line");
  EXPECT_EQ(extra.first[0].port_line, "warning: slow path");
}

TEST(DiffrunCompare, DifferingTokenCounts) {
  const CompareResult r = cmp("row 1 2 3\n", "row 1 2\n");
  ASSERT_FALSE(r.equal);
  EXPECT_EQ(r.differences, 1u);
  EXPECT_EQ(r.first[0].kind, "token-count");
  EXPECT_EQ(r.first[0].ref, "3");
  const CompareResult n = cmp("1.0 v\n", "one v\n");
  EXPECT_EQ(n.first[0].why, "number vs text");
}

TEST(DiffrunCompare, IgnoredLinesAndReportLimit) {
  CompareOptions o;
  o.ignore.emplace_back("^time:");
  o.max_report = 2;
  EXPECT_TRUE(compare_outputs("time: 3 ms\nr 1\n", "r 1\ntime: 9 ms\n", o).equal);
  const CompareResult r = compare_outputs("1\n2\n3\n4\n", "5\n6\n7\n8\n", o);
  EXPECT_EQ(r.differences, 4u);
  EXPECT_EQ(r.first.size(), 2u);
  EXPECT_EQ(r.max_abs_err, 4.0);
}

TEST(DiffrunRunner, CapturesOutputAndExitCode) {
  const RunResult r = run_command({"echo out; echo err >&2; exit 3", ".", "", 10});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.status(), "exit 3");
}

TEST(DiffrunRunner, TimeoutKillsTheProcessGroup) {
  const RunResult r = run_command({"sleep 30 & sleep 30; echo never", ".", "", 0.5});
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_EQ(r.out, "");
}

// --cpu-timeout: a limit on CPU time, which the load of a shared machine does not eat into. A busy
// loop is stopped after about a second of CPU; a sleeping command is not, and uses almost none.
TEST(DiffrunRunner, CpuLimitStopsABusyLoopButNotASleeper) {
  RunRequest busy{"while :; do :; done", ".", "", 120};
  busy.cpu_limit_s = 1;
  const RunResult r = run_command(busy);
  EXPECT_TRUE(r.timed_out);
  EXPECT_TRUE(r.cpu_limited);
  EXPECT_GE(r.cpu_seconds, 0.5);
  EXPECT_NE(r.status().find("CPU limit"), std::string::npos) << r.status();
  EXPECT_FALSE(r.ok());
  RunRequest idle{"sleep 1.5; echo woke", ".", "", 60};
  idle.cpu_limit_s = 1;
  const RunResult q = run_command(idle);
  EXPECT_FALSE(q.timed_out);
  EXPECT_EQ(q.out, "woke\n");
  EXPECT_LT(q.cpu_seconds, 0.5);
}

// A run stopped on the wall clock reports the CPU time of the program, not of the shell that
// started it: `( busy loop ); echo` makes dash fork the loop instead of exec'ing it, and the loop
// dies with the shell unwaited, so the shell's rusage alone would say about 0 s.
TEST(DiffrunRunner, WallTimeoutCountsTheProgramsCpuTime) {
  const RunResult r = run_command({"(while :; do :; done); echo never", ".", "", 2});
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.cpu_limited);
  EXPECT_GE(r.cpu_seconds, 0.05) << "the busy subshell's CPU time was not counted";
  EXPECT_LE(r.cpu_seconds, r.seconds * 2.0 + 0.5);
}

// The CPU limit holds for a program the shell forks rather than execs (dash does so for a command
// with an assignment prefix, as diffrun --wave64's run commands have): the shell sets it first.
TEST(DiffrunRunner, CpuLimitHoldsForAForkedChild) {
  RunRequest busy{"X=1 sh -c 'while :; do :; done'", ".", "", 120};
  busy.cpu_limit_s = 1;
  const RunResult r = run_command(busy);
  EXPECT_TRUE(r.cpu_limited) << r.status();
  EXPECT_LT(r.cpu_seconds, 10.0);
}

TEST(DiffrunRunner, GroupCpuSecondsOfAnAbsentGroupIsZero) { EXPECT_EQ(group_cpu_seconds(0x3fffffff), 0.0); }

// --bisect's launch half (launch_bisect.h): the trace's kernel names, the comparison of two
// launches' buffers (floats within the tolerances, integers exactly), the kernel's definition.
TEST(DiffrunLaunchBisect, KernelIdentifier) {
  EXPECT_EQ(kernel_identifier("group32"), "group32");
  EXPECT_EQ(kernel_identifier("HIP_KERNEL_NAME(ns::reduce<float, 256>)"), "reduce");
  EXPECT_EQ(kernel_identifier("(k<T>)"), "k");
}

namespace fs = std::filesystem;

TraceLaunch one_output(const fs::path& dir, const std::string& file, const void* data, std::size_t n) {
  std::ofstream(dir / file, std::ios::binary).write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  TraceLaunch l;
  l.name = "k";
  l.in[0] = {0, n, 1, ""};
  l.out[0] = {0, n, std::hash<std::string>{}(std::string(static_cast<const char*>(data), n)), file};
  return l;
}

TEST(DiffrunLaunchBisect, ComparesBuffersAsFloatsOrIntegers) {
  const fs::path dir = fs::temp_directory_path() / ("ferry_lb_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const float a[4] = {1.0f, 2.0f, 3.0f, 4.0f}, near[4] = {1.0f, 2.0f, 3.0000002f, 4.0f}, far[4] = {1, 2, 6, 4};
  const Tolerance tol;
  EXPECT_EQ(compare_launch_outputs(one_output(dir, "a", a, 16), dir, one_output(dir, "n", near, 16), dir, tol), "");
  const std::string why =
      compare_launch_outputs(one_output(dir, "a", a, 16), dir, one_output(dir, "f", far, 16), dir, tol);
  EXPECT_NE(why.find("1 of 4 values differ, first at [2]: 3 (reference) vs 6 (port)"), std::string::npos) << why;
  // Small integers read as floats are subnormal: they must match exactly.
  const int i[4] = {5, 6, 7, 8}, j[4] = {5, 6, 7, 9};
  const std::string wi =
      compare_launch_outputs(one_output(dir, "i", i, 16), dir, one_output(dir, "j", j, 16), dir, tol);
  EXPECT_NE(wi.find("read as int32): 1 of 4 values differ, first at [3]: 8 (reference) vs 9 (port)"), std::string::npos)
      << wi;
  fs::remove_all(dir);
}

TEST(DiffrunLaunchBisect, FindsTheKernelsDefinition) {
  const fs::path dir = fs::temp_directory_path() / ("ferry_lbk_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.hip") << "// group32(x) in a comment\n"
                                  "__global__ void group32(float* x);\n"
                                  "template <int B>\n"
                                  "__global__ void __launch_bounds__(256) group32(float* x) {\n"
                                  "  if (x) { x[0] = 1; }\n"
                                  "}\n";
  const KernelSite k = find_kernel(dir, "group32");
  EXPECT_EQ(k.file, "k.hip");
  EXPECT_EQ(k.line, 4);
  EXPECT_EQ(k.end_line, 6);
  EXPECT_EQ(find_kernel(dir, "other").line, 0);
  fs::remove_all(dir);
}

TEST(DiffrunRunner, ReportsSignals) {
  const RunResult r = run_command({"kill -SEGV $$", ".", "", 10});
  EXPECT_EQ(r.signal, 11);
  EXPECT_EQ(r.status(), "signal 11 (SIGSEGV)");
  EXPECT_FALSE(r.ok());
}

TEST(DiffrunRunner, LeftoverBackgroundJobsDoNotHang) {
  const RunResult r = run_command({"sleep 30 & echo done", ".", "", 20});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "done\n");
  EXPECT_LT(r.seconds, 5.0);
}

TEST(DiffrunRun, SameAndDifferent) {
  Spec s;
  s.ref.run = "printf 'sum 1.000000\\n'";
  s.port.run = "printf 'sum 1.0000001\\n'";
  s.runs = 3;
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "same");
  EXPECT_EQ(o.ref.runs.size(), 3u);
  EXPECT_GT(o.ratio, 0);
  s.port.run = "printf 'sum 1.1\\n'; exit 1";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "different");
  EXPECT_FALSE(o.exit_codes_match);
  EXPECT_FALSE(o.out.equal);
  s.port.build = "exit 7";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "build-failed");
  EXPECT_EQ(o.build_failed_side, "port");
}

// A build stopped on a construct the runtime names as unsupported (FRY9412 / FRY9414 / FRY5601,
// as `ferry wave64 build` prints them) is its own verdict; any other build failure stays one.
TEST(DiffrunRun, UnsupportedConstructIsItsOwnVerdict) {
  const Unsupported u = unsupported_in_build(
      "/c/sgemv/Sgemv_v0.cu:3: error: wave64 CPU runtime: the program uses cuBLAS (<cublas_v2.h> included here), a "
      "library the runtime cannot run: it runs kernels written against the CUDA/HIP runtime API only [FRY9412]\n"
      "    hint: compare this program on a GPU\n");
  EXPECT_EQ(u.what, "cuBLAS");
  EXPECT_EQ(u.where, "Sgemv_v0.cu:3");
  EXPECT_EQ(u.code, "FRY9412");
  EXPECT_EQ(unsupported_in_build("/c/g.cu:166:5: error: wave64 CPU runtime: `cudaKernelNodeParams` is not declared by "
                                 "the runtime's headers (an API it does not model) [FRY9414]\n")
                .what,
            "cudaKernelNodeParams");
  EXPECT_EQ(unsupported_in_build("/c/q.cu:60:5: error: inline assembly in device code [FRY5601]\n").what,
            "inline assembly");
  EXPECT_EQ(unsupported_in_build("/c/r.cu:582:65: error: wave64 CPU runtime (HIP): a cooperative-groups tile of 128 "
                                 "threads, wider than the wavefront [FRY9404]\n")
                .what,
            "cooperative-groups tile wider than the wavefront");
  EXPECT_TRUE(unsupported_in_build("/c/m.cu:3:10: error: wave64 CPU runtime: <cute/tensor.hpp> is neither in the "
                                   "program's folders nor on this machine [FRY9413]\n")
                  .what.empty());

  Spec s;
  s.ref.run = s.port.run = "true";
  s.ref.build = s.port.build =
      "echo '/c/a.cu:3: error: wave64 CPU runtime: the program uses cuRAND (<curand.h> included here), a library "
      "the runtime cannot run [FRY9412]' >&2; exit 1";
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "unsupported");
  EXPECT_EQ(o.unsupported, "cuRAND");
  EXPECT_EQ(o.build_failed_side, "both");
  EXPECT_NE(to_text(s, o).find("UNSUPPORTED: cuRAND (a.cu:3, FRY9412; both)"), std::string::npos) << to_text(s, o);
  EXPECT_EQ(to_json(s, o)["unsupported"]["what"], "cuRAND");
  s.ref.build = "true";
  s.port.build = "echo 'a.cu:1:1: error: expected ;' >&2; exit 1";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "build-failed");  // no named construct: a plain build failure
  EXPECT_TRUE(o.unsupported.empty());
}

// Both sides stopped by the runtime on work sized for a GPU (FRY9402) or memory the host cannot
// back (FRY9403): UNSUPPORTED, named; one side so and the other failing otherwise stays BOTH FAILED.
TEST(DiffrunRun, RuntimeStopIsUnsupported) {
  const std::string gpu_sized =
      "wave64: error: a launch of 524288 blocks of 256 threads needs about 952 s more of CPU time (16 blocks took "
      "11.0 s), more than the 109 s left of the 120 s limit: work sized for a GPU, stopped [FRY9402]";
  EXPECT_EQ(unsupported_in_run(gpu_sized + "\n").code, "FRY9402");
  EXPECT_EQ(
      unsupported_in_run("wave64: error: cudaMallocManaged of 32.0 GiB: ... the allocation fails [FRY9403]\n").code,
      "FRY9403");
  EXPECT_TRUE(unsupported_in_run("Segmentation fault [FRY9402]\n").what.empty());  // not the runtime's line

  Spec s;
  s.ref.run = s.port.run = "echo '" + gpu_sized + "' >&2; exit 3";
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "unsupported");
  EXPECT_EQ(o.unsupported_code, "FRY9402");
  EXPECT_NE(to_text(s, o).find("UNSUPPORTED: work sized for a GPU (at run time, FRY9402; both)"), std::string::npos)
      << to_text(s, o);
  s.port.run = "exit 1";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "both-failed");
  // Stopped by the projection on one side only, the other side finished: that side's time-out.
  s.port.run = "echo 'result ok'";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "timeout");
  EXPECT_EQ(o.timeout_side, "reference");
}

// A lane count fixed at 32 in the program's own code (FRY9415) is named from the port's folder
// when one is given: what the migration did not change is what runs at 64 lanes.
TEST(DiffrunConstructs, LaneCountFixedAt32) {
  const auto base = std::filesystem::temp_directory_path() / ("w64fixed" + std::to_string(::getpid()));
  std::filesystem::create_directories(base / "ref");
  std::filesystem::create_directories(base / "port");
  std::ofstream(base / "ref" / "a.cu") << "int devID, warp_size = 32;\n"
                                          "// WARP_SIZE = 32 in a comment\n"
                                          "#define WARP_SIZE 32\n"
                                          "if (warp_size == 32) {}\n"
                                          "const int w = 320;\n";
  std::ofstream(base / "port" / "a.cu") << "int devID, warp_size = 64;\n";
  const std::vector<ConstructNote> ref = unsupported_constructs(base / "ref");
  ASSERT_EQ(ref.size(), 2u);
  EXPECT_EQ(ref[0].code, "FRY9415");
  EXPECT_EQ(ref[0].line, 1);
  EXPECT_EQ(ref[1].line, 3);
  EXPECT_NE(ref[0].message.find("fixes the lane count at 32"), std::string::npos);
  EXPECT_TRUE(unsupported_constructs(base / "ref", 5, base / "port").empty());
  std::filesystem::remove_all(base);
}

// A tree step from warpSize over a __shared__ array of 32 (FRY9416): the program means 32 by
// warpSize; at 64 lanes the first step reads past the array. Not without an offset index.
TEST(DiffrunConstructs, WarpSizeStepOverA32ElementSharedArray) {
  const auto base = std::filesystem::temp_directory_path() / ("w64step" + std::to_string(::getpid()));
  std::filesystem::create_directories(base / "port");
  std::ofstream(base / "port" / "k.cu") << "__global__ void sum(long* d) {\n"
                                           "  __shared__ long s[32];\n"
                                           "  s[threadIdx.x] = d[threadIdx.x];\n"
                                           "  for (int i = warpSize / 2; i > 0; i /= 2) {\n"
                                           "    if (threadIdx.x < i) s[threadIdx.x] += s[threadIdx.x + i];\n"
                                           "  }\n"
                                           "}\n";
  std::ofstream(base / "port" / "other.cu") << "__global__ void k(int* d) {\n"
                                               "  __shared__ int t[32];\n"
                                               "  t[threadIdx.x % 32] = warpSize / 2;\n"
                                               "}\n";
  const std::vector<ConstructNote> n = unsupported_constructs(base / "port");
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].code, "FRY9416");
  EXPECT_EQ(n[0].file, "k.cu");
  EXPECT_EQ(n[0].line, 4);
  EXPECT_NE(n[0].message.find("walks `s`, a __shared__ array of 32 elements"), std::string::npos) << n[0].message;
  std::filesystem::remove_all(base);
}

// Both sides failing the same way says nothing about the port: never SAME.
TEST(DiffrunRun, BothFailedIsNeverSame) {
  Spec s;
  s.ref.run = "echo partial; exit 1";
  s.port.run = "echo partial; exit 1";
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "both-failed");
  EXPECT_EQ(o.ref.failure, "exit 1");
  EXPECT_FALSE(o.same());
  s.ref.run = s.port.run = "kill -SEGV $$";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "both-failed");
  EXPECT_EQ(o.port.failure, "signal 11 (SIGSEGV)");
  // A shell reporting its crashed child (exit 134, 139) is a failure too.
  s.ref.run = s.port.run = "exit 134";
  EXPECT_EQ(run_diff(s).verdict, "both-failed");
  EXPECT_NE(to_text(s, run_diff(s)).find("verdict: BOTH FAILED (reference: exit 134; port: exit 134)"),
            std::string::npos);
}

TEST(DiffrunRun, SelfReportedFailureMakesItDifferent) {
  Spec s;
  s.ref.run = "echo 'sum 3'; echo 'Test passed'";
  s.port.run = "echo 'sum 3'; echo 'Test passed'; echo 'Result = FAIL' >&2";
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "different");
  EXPECT_EQ(o.port.failure, "printed 'Result = FAIL'");
  EXPECT_TRUE(o.out.equal);
  s.ref.run = s.port.run = "echo 'checksum mismatch at 4'";
  EXPECT_EQ(run_diff(s).verdict, "both-failed");
  s.check_self_reports = false;
  EXPECT_EQ(run_diff(s).verdict, "same");
  s.check_self_reports = true;
  s.ref.run = s.port.run = "echo 'bad news'";
  s.fail_patterns = {"^bad"};
  EXPECT_EQ(run_diff(s).verdict, "both-failed");
}

TEST(DiffrunRun, TimeoutSaysWhichSide) {
  Spec s;
  s.ref.run = "echo 1";
  s.port.run = "sleep 10";
  s.timeout_s = 0.5;
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "timeout");
  EXPECT_EQ(o.timeout_side, "port");
  EXPECT_NE(to_text(s, o).find("verdict: TIMEOUT (port, timed out after"), std::string::npos);
  s.ref.run = "sleep 10";
  EXPECT_EQ(run_diff(s).timeout_side, "both");
}

TEST(DiffrunSelfCheck, FindsFailureLinesButNotZeroCounts) {
  const std::vector<std::regex> none;
  EXPECT_EQ(find_self_reported_failure("ok\nTest FAILED\n", none, none), "Test FAILED");
  EXPECT_EQ(find_self_reported_failure("Test failed!\n", none, none), "Test failed!");
  EXPECT_EQ(find_self_reported_failure("Verification failed at 3\n", none, none), "Verification failed at 3");
  EXPECT_EQ(find_self_reported_failure("Checksum does not match\n", none, none), "Checksum does not match");
  EXPECT_EQ(find_self_reported_failure("wrong result at 7\n", none, none), "wrong result at 7");
  EXPECT_EQ(find_self_reported_failure("Mismatch at 12: 1 vs 2\n", none, none), "Mismatch at 12: 1 vs 2");
  EXPECT_EQ(find_self_reported_failure("the ans is wrong\n1.0 2.0\n", none, none), "the ans is wrong");
  EXPECT_EQ(find_self_reported_failure("The answer is incorrect\n", none, none), "The answer is incorrect");
  for (const char* fine :
       {"Test PASSED\n", "PASSED: 10 FAILED: 0\n", "mismatches = 0\n", "0 mismatches\n", "no mismatch\n",
        "return EXIT_FAILURE;\n", "cudaErrorLaunchFailure handled\n", "failure rate of the hash: 0.1\n",
        "Checking results... ok\n", "the ans is right\n", "the answer is not wrong\n"})
    EXPECT_EQ(find_self_reported_failure(fine, none, none), "") << fine;
  const std::vector<std::regex> ignore{std::regex("^Test")};
  EXPECT_EQ(find_self_reported_failure("Test FAILED\n", none, ignore), "");
}

// Lines printed at once by several threads (HIP-Examples' openmp-helloworld launches from 16 OpenMP
// threads): the same lines in another order are still a difference, named as such.
TEST(DiffrunCompare, SameLinesInAnotherOrder) {
  const CompareOptions o;
  const CompareResult r = compare_outputs("start\nthread 1\nthread 2\nend\n", "start\nthread 2\nthread 1\nend\n", o);
  EXPECT_FALSE(r.equal);
  EXPECT_TRUE(r.reordered);
  const CompareResult d = compare_outputs("a 1\nb 2\n", "a 1\nb 3\n", o);
  EXPECT_FALSE(d.equal);
  EXPECT_FALSE(d.reordered);
  EXPECT_FALSE(compare_outputs("a\n", "a\n", o).reordered);
  EXPECT_FALSE(compare_outputs("a\nb\n", "b\n", o).reordered);
}

// Output the reference itself does not repeat (compare_with_rerun): a second run of the reference
// says which lines and numbers vary; those are left out, the rest must still agree.
TEST(DiffrunCompare, RerunLeavesOutATimingField) {
  const CompareOptions o;
  // mini-nbody's rate line: a figure without a unit the --ignore patterns know.
  const std::string ref = "n 4096\nrate 12.5 Gint/s\nsum 3.25\n";
  const std::string ref2 = "n 4096\nrate 13.75 Gint/s\nsum 3.25\n";
  const std::string port = "n 4096\nrate 9.5 Gint/s\nsum 3.25\n";
  EXPECT_FALSE(compare_outputs(ref, port, o).equal);
  const CompareResult r = compare_with_rerun(ref, ref2, port, o);
  EXPECT_TRUE(r.equal);
  EXPECT_TRUE(r.rechecked);
  EXPECT_EQ(r.varying_fields, 1u);
  EXPECT_EQ(r.varying_lines, 0u);
  EXPECT_EQ(r.lines_compared, 3u);  // the rate line's text is still compared
  EXPECT_EQ(describe_recheck(r), "1 field varied between runs of the original; 3 lines compared");
  // A line whose text varies is left out whole; its token count may differ in the port.
  const CompareResult w = compare_with_rerun("a 1\nran at 1\n", "a 1\nran slowly 1\n", "a 1\nran 2 3\n", o);
  EXPECT_TRUE(w.equal);
  EXPECT_EQ(w.varying_lines, 1u);
  EXPECT_EQ(w.lines_compared, 1u);
}

TEST(DiffrunCompare, RerunLetsOrderGoWhenTheReferenceReorders) {
  const CompareOptions o;
  const std::string ref = "start\nthread 1\nthread 2\nthread 3\nend\n";
  const std::string ref2 = "start\nthread 3\nthread 1\nthread 2\nend\n";
  const std::string port = "start\nthread 2\nthread 3\nthread 1\nend\n";
  const CompareResult r = compare_with_rerun(ref, ref2, port, o);
  EXPECT_TRUE(r.equal);
  EXPECT_TRUE(r.order_varies);
  EXPECT_EQ(describe_recheck(r), "the order of lines varied between runs of the original; 5 lines compared");
  // Order is free, content is not: a thread line the reference never prints stays a difference.
  EXPECT_FALSE(compare_with_rerun(ref, ref2, "start\nthread 2\nthread 4\nthread 1\nend\n", o).equal);
  // A reference that prints its lines in one order: the port's other order still counts.
  const CompareResult fixed = compare_with_rerun(ref, ref, port, o);
  EXPECT_FALSE(fixed.equal);
  EXPECT_TRUE(fixed.reordered);
  EXPECT_FALSE(fixed.order_varies);
}

TEST(DiffrunCompare, RerunKeepsARealDifferenceWhileAnotherLineVaries) {
  const CompareOptions o;
  const std::string ref = "time 1.5 ms\nresult 42\n";
  const std::string ref2 = "time 2.5 ms\nresult 42\n";
  const CompareResult r = compare_with_rerun(ref, ref2, "time 0.5 ms\nresult 43\n", o);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.differences, 1u);
  ASSERT_FALSE(r.first.empty());
  EXPECT_EQ(r.first.front().line, 2u);
  EXPECT_EQ(r.varying_fields, 1u);
  // A missing line is a difference, whatever varies.
  EXPECT_FALSE(compare_with_rerun(ref, ref2, "time 0.5 ms\n", o).equal);
  // Runs of the reference that cannot be lined up leave nothing out.
  const CompareResult n = compare_with_rerun(ref, "result 42\n", "time 0.5 ms\nresult 42\n", o);
  EXPECT_FALSE(n.equal);
  EXPECT_EQ(describe_recheck(n), "the reference's runs printed 2 and 1 lines: nothing left out");
}

// Everything varies: SAME, but visibly on nothing ("0 lines compared").
TEST(DiffrunCompare, RerunThatLeavesNothingSaysSo) {
  const CompareOptions o;
  const CompareResult r = compare_with_rerun("1 0.25 7.5\n", "1 0.5 9.25\n", "1 0.75 3\n", o);
  EXPECT_TRUE(r.equal);
  EXPECT_EQ(r.varying_fields, 2u);
  EXPECT_EQ(describe_recheck(r), "2 fields varied between runs of the original; 1 line compared");
  const CompareResult none = compare_with_rerun("0.25 7.5\n", "0.5 9.25\n", "0.75 3\n", o);
  EXPECT_TRUE(none.equal);
  EXPECT_EQ(none.lines_compared, 0u);
  EXPECT_NE(describe_recheck(none).find("; 0 lines compared"), std::string::npos) << describe_recheck(none);
}

// run_diff with rerun_reference: only a DIFFERENT stdout with both sides at exit 0 runs the
// reference again; the note says what was left out.
TEST(DiffrunRun, RerunOfTheReferenceOnADifference) {
  const auto dir = std::filesystem::temp_directory_path() / ("w64rerun" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Spec s;
  s.ref.dir = s.port.dir = dir.string();
  // A counter file makes each run of the reference print another rate.
  s.ref.run = "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; printf 'rate %d\\nsum 5\\n' $((n*7+3))";
  s.port.run = "printf 'rate 100\\nsum 5\\n'";
  s.rerun_reference = true;
  Outcome o = run_diff(s);
  EXPECT_EQ(o.verdict, "same");
  EXPECT_TRUE(o.ref_rerun);
  EXPECT_EQ(o.note, "1 field varied between runs of the original; 2 lines compared");
  EXPECT_EQ(to_json(s, o).at("note"), o.note);
  s.port.run = "printf 'rate 100\\nsum 6\\n'";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "different");
  EXPECT_TRUE(o.ref_rerun);
  EXPECT_NE(summarize(s, o).find("reference run again: 1 field varied"), std::string::npos) << summarize(s, o);
  // A port that fails is no case for a second run.
  s.port.run = "printf 'rate 100\\nsum 5\\n'; exit 1";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "different");
  EXPECT_FALSE(o.ref_rerun);
  // Off by default (plain diffrun): the varying rate stays a difference.
  s.rerun_reference = false;
  s.port.run = "printf 'rate 100\\nsum 5\\n'";
  o = run_diff(s);
  EXPECT_EQ(o.verdict, "different");
  EXPECT_FALSE(o.ref_rerun);
  std::filesystem::remove_all(dir);
}

TEST(DiffrunSuite, MakefileRunTargetArguments) {
  EXPECT_EQ(makefile_run_args("all: app\n\nrun: app\n\t./app -n 4 --quick\n"), "-n 4 --quick");
  EXPECT_EQ(makefile_run_args("run: build\n\t@echo go\n\tcd bin && ./app 128 > log.txt\n"), "128");
  EXPECT_EQ(makefile_run_args("run:\n\t./$(EXE)\n"), "");
  EXPECT_EQ(makefile_run_args("run:\n\t./app $(ARGS)\n"), "");  // unknown variables: no guess
  EXPECT_EQ(makefile_run_args("app: a.cu\n\tnvcc a.cu\n"), "");
}

// A quoted include that the folder lacks, beside an ancestor up to the root (HIP-Examples'
// mini-nbody/hip builds with -I../ for timer.h): that ancestor is an include folder.
TEST(DiffrunSuite, IncludeFoundInAnAncestorFolder) {
  const auto root = std::filesystem::temp_directory_path() / ("w64anc" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "nbody" / "hip");
  std::ofstream(root / "nbody" / "timer.h") << "#pragma once\n";
  std::ofstream(root / "nbody" / "hip" / "a.cpp")
      << "#include \"timer.h\"\n#include \"missing.h\"\n__global__ void k() {}\nint main() { return 0; }\n";
  std::ofstream(root / "list.txt") << "nbody/hip\n";
  const std::vector<SuiteProgram> p = find_programs(root, root / "list.txt");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].include_dirs, (std::vector<std::string>{".", ".."}));
  // Two mains of one stem keep their extension in the program's name.
  std::ofstream(root / "nbody" / "hip" / "a.cu") << "int main() { return 0; }\n";
  const std::vector<SuiteProgram> two = find_programs(root, root / "list.txt");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].name, "nbody/hip/a.cpp");
  EXPECT_EQ(two[1].name, "nbody/hip/a.cu");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace ferry::diffrun

// diffrun --wave64: both sides are built with one device model (gfx906 unless told), so only the
// warp size differs, and at -O2 unless a level is given.
TEST(DiffrunWave64Sides, OneDeviceModelAndO2ByDefault) {
  ferry::diffrun::Wave64Sides w;
  w.ferry = "ferry";
  w.sources = {"a.cu"};
  w.work = "/w";
  const ferry::diffrun::Side ref = ferry::diffrun::wave64_side(w, {}, "ref", 0, "cuda");
  const ferry::diffrun::Side port = ferry::diffrun::wave64_side(w, {}, "port", 0, "hip");
  EXPECT_NE(ref.build.find(" --device gfx906"), std::string::npos) << ref.build;
  EXPECT_NE(port.build.find(" --device gfx906"), std::string::npos) << port.build;
  EXPECT_NE(ref.build.find(" -O2"), std::string::npos) << ref.build;
  w.device_model = "native";
  w.build_flags = {"-O3"};
  const ferry::diffrun::Side native = ferry::diffrun::wave64_side(w, {}, "ref", 0, "cuda");
  EXPECT_EQ(native.build.find("--device"), std::string::npos) << native.build;
  EXPECT_EQ(native.build.find("-O2"), std::string::npos) << native.build;
  EXPECT_NE(native.build.find(" -O3"), std::string::npos) << native.build;
  w.device_model = "sm90";
  EXPECT_NE(ferry::diffrun::wave64_side(w, {}, "port", 0, "hip").build.find(" --device sm90"), std::string::npos);
}
