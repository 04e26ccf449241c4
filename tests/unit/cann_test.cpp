// The CUDA → CANN target: each argument-level rewrite, the reverse capacity check, and the side
// output (Ascend C skeleton) that the golden tests cannot see.
#include <gtest/gtest.h>

#include <string>

#include "migrate/file_migration.h"
#include "targets/cann/passes.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

migrate::FileResult run(const std::string& src, const std::string& path = "t.cu") {
  static const Options options;
  static const auto target = make_target("cann", options);
  static const ProjectContext ctx;
  return migrate::migrate_buffer(path, src, *target, options, ctx);
}

std::size_t count(const migrate::FileResult& r, std::string_view code) {
  std::size_t n = 0;
  for (const auto& d : r.diagnostics) n += to_string(d.code) == code;
  return n;
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

TEST(CannTarget, MallocGetsPolicyAndVoidCast) {
  const auto r = run("#include <cuda_runtime.h>\nvoid f(float *p, size_t n) { cudaMalloc(&p, n); }\n");
  EXPECT_TRUE(has(r.output, "aclrtMalloc((void **)&p, n, ACL_MEM_MALLOC_HUGE_FIRST);")) << r.output;
  EXPECT_TRUE(has(r.output, "#include <acl/acl.h>"));
}

TEST(CannTarget, MallocKeepsAnExistingVoidCast) {
  const auto r = run("void f(float *p) { cudaMalloc((void **)&p, 64); }\n");
  EXPECT_TRUE(has(r.output, "aclrtMalloc((void **)&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);")) << r.output;
}

TEST(CannTarget, MemcpyCapacityFromCount) {
  const auto r = run("void f(float *d, float *h, int n) { cudaMemcpy(d, h, n * 4, cudaMemcpyHostToDevice); }\n");
  EXPECT_TRUE(has(r.output, "aclrtMemcpy(d, n * 4, h, n * 4, ACL_MEMCPY_HOST_TO_DEVICE);")) << r.output;
  EXPECT_EQ(count(r, "FRY4601"), 1u);
}

TEST(CannTarget, MemsetCapacityBeforeValue) {
  const auto r = run("void f(float *d) { cudaMemset(d, 0, 128); }\n");
  EXPECT_TRUE(has(r.output, "aclrtMemset(d, 128, 0, 128);")) << r.output;
}

TEST(CannTarget, AsyncCallsTakeTheVisibleStream) {
  const auto r =
      run("void f(float *d, float *h, cudaStream_t s) {\n"
          "  cudaMemcpyAsync(d, h, 8, cudaMemcpyHostToDevice);\n"
          "  cudaMemsetAsync(d, 0, 8, 0);\n"
          "  cudaEvent_t e; cudaEventRecord(e);\n}\n");
  EXPECT_TRUE(has(r.output, "aclrtMemcpyAsync(d, 8, h, 8, ACL_MEMCPY_HOST_TO_DEVICE, s);")) << r.output;
  EXPECT_TRUE(has(r.output, "aclrtMemsetAsync(d, 8, 0, 8, s);")) << r.output;
  EXPECT_TRUE(has(r.output, "aclrtRecordEvent(e, s);")) << r.output;
  EXPECT_EQ(count(r, "FRY4602"), 0u);
  EXPECT_EQ(count(r, "FRY4610"), 3u);  // each was on CUDA's default stream
}

TEST(CannTarget, ExplicitStreamIsKept) {
  const auto r =
      run("void f(float *d, cudaStream_t s, cudaStream_t t) {\n"
          "  cudaMemsetAsync(d, 0, 8, t);\n}\n");
  EXPECT_TRUE(has(r.output, "aclrtMemsetAsync(d, 8, 0, 8, t);")) << r.output;
  EXPECT_EQ(count(r, "FRY4610"), 0u);
}

TEST(CannTarget, NoVisibleStreamIsDiagnosed) {
  const auto r = run("void f(cudaEvent_t e) { cudaEventRecord(e, 0); }\n");
  EXPECT_TRUE(has(r.output, "aclrtRecordEvent(e, nullptr);")) << r.output;
  EXPECT_EQ(count(r, "FRY4602"), 1u);
}

TEST(CannTarget, StreamOfAnotherFunctionIsNotVisible) {
  const auto r = run("void g(cudaStream_t s) {}\nvoid f(cudaEvent_t e) { cudaEventRecord(e); }\n");
  EXPECT_TRUE(has(r.output, "aclrtRecordEvent(e, nullptr);")) << r.output;
}

TEST(CannTarget, DeviceCountIntGoesThroughATemporary) {
  const auto r = run("void f() { int n; cudaGetDeviceCount(&n); }\n");
  EXPECT_EQ(count(r, "FRY4604"), 1u);
  EXPECT_TRUE(has(r.output,
                  "[](auto *ferry_count) { uint32_t ferry_count_v = 0; const aclError ferry_err = "
                  "aclrtGetDeviceCount(&ferry_count_v); if (ferry_err == ACL_SUCCESS) { *ferry_count = "
                  "ferry_count_v; } return ferry_err; }(&n);"))
      << r.output;
  const auto u = run("void f() { uint32_t n; cudaGetDeviceCount(&n); }\n");
  EXPECT_EQ(count(u, "FRY4604"), 0u);
  EXPECT_TRUE(has(u.output, "aclrtGetDeviceCount(&n);")) << u.output;
  // `unsigned` is uint32_t; a declarator list keeps its type.
  EXPECT_TRUE(has(run("void f() { unsigned a = 0, n; cudaGetDeviceCount(&n); }\n").output, "aclrtGetDeviceCount(&n);"));
}

TEST(CannTarget, OutParameterFitsByDeclaredType) {
  // int is int32_t: a plain call. long is not: a temporary. A pointer parameter is read too.
  EXPECT_TRUE(has(run("void f() { int d; cudaGetDevice(&d); }\n").output, "aclrtGetDevice(&d);"));
  EXPECT_TRUE(has(run("void f() { long d; cudaGetDevice(&d); }\n").output, "int32_t ferry_deviceId_v = 0;"));
  EXPECT_TRUE(has(run("void f(int *d) { cudaGetDevice(d); }\n").output, "aclrtGetDevice(d);"));
  EXPECT_TRUE(has(run("void f(unsigned *d) { cudaGetDevice(d); }\n").output, "(auto *ferry_deviceId)"));
  // Same size and signedness, another type: reinterpret_cast.
  const auto r = run("void f() { unsigned long long fr, tot; cudaMemGetInfo(&fr, &tot); }\n");
  EXPECT_TRUE(has(r.output,
                  "aclrtGetMemInfo(ACL_HBM_MEM, reinterpret_cast<size_t *>(&fr), "
                  "reinterpret_cast<size_t *>(&tot));"))
      << r.output;
  // Unknown: a member, or a name declared in another function, takes the always-correct path.
  EXPECT_TRUE(has(run("struct S { int n; }; void f(S s) { cudaGetDeviceCount(&s.n); }\n").output, "(&s.n)"));
  EXPECT_TRUE(
      has(run("void g() { uint32_t n; }\nvoid f() { int a, n; cudaGetDeviceCount(&n); }\n").output, "ferry_count_v"));
}

TEST(CannTarget, DeclarationOfReadsDeclarators) {
  static const Options options;
  static const auto target = make_target("cann", options);
  static const ProjectContext ctx;
  const std::string src =
      "const float *in; float *out, buf[4]; unsigned long long big; void f(const int *devs, MyT t) { x = in; }";
  migrate::FileMigration f("t.cu", src, *target, options, ctx);
  const std::size_t end = f.code_size() - 1;
  const auto in = cann::declaration_of(f, "in", end);
  EXPECT_TRUE(in.found && in.builtin && in.pointee_const && in.pointer_level == 1 && in.type == "float");
  const auto out = cann::declaration_of(f, "out", end);
  EXPECT_TRUE(out.found && !out.pointee_const && out.pointer_level == 1 && out.type == "float");
  const auto buf = cann::declaration_of(f, "buf", end);
  EXPECT_TRUE(buf.found && buf.is_array && buf.type == "float") << buf.type;
  EXPECT_EQ(cann::declaration_of(f, "big", end).type, "unsigned long long");
  const auto devs = cann::declaration_of(f, "devs", end);
  EXPECT_TRUE(devs.found && devs.pointee_const && devs.type == "int");
  const auto t = cann::declaration_of(f, "t", end);
  EXPECT_TRUE(t.found && !t.builtin);
  EXPECT_FALSE(cann::declaration_of(f, "x", end).found);
  EXPECT_EQ(cann::canonical_type("size_t"), "unsigned long");
  EXPECT_EQ(cann::canonical_type("uint32_t"), cann::canonical_type("unsigned"));
}

TEST(CannTarget, NullOutArgumentGetsADroppedTemporary) {
  const auto r = run("void f() { int g; cudaDeviceGetStreamPriorityRange(NULL, &g); }\n");
  EXPECT_TRUE(has(r.output,
                  "[](auto ferry_leastPriority, auto *ferry_greatestPriority) { int32_t "
                  "ferry_leastPriority_v = 0; (void)ferry_leastPriority; const aclError ferry_err = "
                  "aclrtDeviceGetStreamPriorityRange(&ferry_leastPriority_v, ferry_greatestPriority); "
                  "return ferry_err; }(NULL, &g);"))
      << r.output;
}

TEST(CannTarget, DeviceAttributeReordersOrIsDiagnosed) {
  const auto r =
      run("void f(int dev) { int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); }\n");
  EXPECT_TRUE(has(r.output, "aclrtGetDeviceInfo(ferry_deviceId, ferry_attr, &ferry_value_v)")) << r.output;
  EXPECT_TRUE(has(r.output, "}(&sms, ACL_DEV_ATTR_AICORE_CORE_NUM, dev);")) << r.output;
  const auto u =
      run("void f(int dev) { int v; cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, dev); }\n");
  EXPECT_EQ(count(u, "FRY1607"), 1u);
  EXPECT_TRUE(has(u.output, "cudaDeviceGetAttribute(&v,")) << u.output;
}

TEST(CannTarget, EventFlagsAreTranslated) {
  const auto r =
      run("void f() { cudaEvent_t a, b, c;\n"
          "  cudaEventCreateWithFlags(&a, cudaEventDisableTiming);\n"
          "  cudaEventCreateWithFlags(&b, cudaEventBlockingSync | cudaEventDisableTiming);\n"
          "  cudaEventCreateWithFlags(&c, cudaEventDefault); }\n");
  EXPECT_TRUE(has(r.output, "aclrtCreateEventWithFlag(&a, ACL_EVENT_SYNC);")) << r.output;
  EXPECT_TRUE(has(r.output, "aclrtCreateEventWithFlag(&b, ACL_EVENT_SYNC);")) << r.output;
  EXPECT_TRUE(has(r.output, "aclrtCreateEventWithFlag(&c, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);")) << r.output;
  EXPECT_EQ(count(r, "FRY4608"), 3u);
  const auto v = run("void f(unsigned fl) { cudaEvent_t a; cudaEventCreateWithFlags(&a, fl); }\n");
  EXPECT_TRUE(has(v.output, "aclrtCreateEventWithFlag(&a, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);")) << v.output;
  EXPECT_EQ(v.diagnostics.front().severity, Severity::Warning);
  EXPECT_EQ(count(run("void f() { cudaEvent_t a; cudaEventCreateWithFlags(&a, cudaEventInterprocess | "
                      "cudaEventDisableTiming); }\n"),
                  "FRY1608"),
            1u);
}

TEST(CannTarget, StreamPriorityAndHostAllocFlags) {
  const auto r = run("void f(int p) { cudaStream_t s; cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p); }\n");
  EXPECT_TRUE(has(r.output, "aclrtCreateStreamWithConfig(&s, p, 0);")) << r.output;
  EXPECT_EQ(count(r, "FRY4609"), 1u);
  const auto h = run("void f(float *h) { cudaHostAlloc(&h, 64, cudaHostAllocMapped); }\n");
  EXPECT_TRUE(has(h.output, "aclrtMallocHost((void **)&h, 64);")) << h.output;
  EXPECT_EQ(count(h, "FRY4608"), 1u);
}

TEST(CannTarget, HcclConstSendBufferAndRankQueries) {
  const auto r =
      run("void f(const float *in, float *out, size_t n, ncclComm_t c, cudaStream_t s) {\n"
          "  ncclAllReduce(in, out, n, ncclFloat, ncclSum, c, s);\n"
          "  ncclAllReduce(out, out, n, ncclFloat, ncclSum, c, s);\n"
          "  int r; ncclCommUserRank(c, &r); uint32_t z; ncclCommCount(c, &z); }\n");
  EXPECT_TRUE(has(r.output, "HcclAllReduce(const_cast<void *>(static_cast<const void *>(in)), out, n,")) << r.output;
  EXPECT_TRUE(has(r.output, "HcclAllReduce(out, out, n,")) << r.output;
  EXPECT_TRUE(has(r.output, "HcclGetRankId(ferry_comm, &ferry_rank_v)")) << r.output;
  EXPECT_TRUE(has(r.output, "HcclGetRankSize(c, &z);")) << r.output;
  const auto a = run("void f(ncclComm_t *cs, const int *devs) { ncclCommInitAll(cs, 2, devs); }\n");
  EXPECT_TRUE(has(a.output, "HcclCommInitAll(2, const_cast<int32_t *>(devs), cs);")) << a.output;
  EXPECT_EQ(count(run("void f(ncclComm_t *cs) { ncclCommInitAll(cs, 2, NULL); }\n"), "FRY1609"), 1u);
}

TEST(CannTarget, DeviceResetTakesTheSetDeviceId) {
  const auto r = run("void f(int id) { cudaSetDevice(id); cudaDeviceReset(); }\n");
  EXPECT_TRUE(has(r.output, "aclrtSetDevice(id); aclrtResetDevice(id);")) << r.output;
  const auto r2 = run("void f() { cudaDeviceReset(); }\n");
  EXPECT_EQ(count(r2, "FRY1605"), 1u);
  EXPECT_TRUE(has(r2.output, "cudaDeviceReset();"));
}

TEST(CannTarget, InitAndFinalizeAroundMain) {
  const auto r = run("int main() {\n  int x = 0;\n  if (x) { return 1; }\n  return 0;\n}\n");
  EXPECT_EQ(r.output,
            "int main() {\n  aclInit(nullptr);\n  int x = 0;\n  if (x) { aclFinalize();\n  return 1; }\n"
            "  aclFinalize();\n  return 0;\n}\n");
  EXPECT_EQ(count(run(r.output), "FRY4603"), 0u);  // idempotent: aclInit is there
  const auto no_return = run("int main() {\n  work();\n}\n");
  EXPECT_EQ(no_return.output, "int main() {\n  aclInit(nullptr);\n  work();\n  aclFinalize();\n}\n");
}

TEST(CannTarget, BracelessReturnInMainIsDiagnosed) {
  EXPECT_EQ(count(run("int main(int c, char **v) {\n  if (c > 2) return 1;\n  return 0;\n}\n"), "FRY1603"), 1u);
}

TEST(CannTarget, HcclInitRankArgumentOrder) {
  const auto r = run("void f(ncclComm_t c, int n, ncclUniqueId id, int r) { ncclCommInitRank(&c, n, id, r); }\n");
  EXPECT_TRUE(has(r.output, "HcclCommInitRootInfo(n, &id, r, &c);")) << r.output;
}

TEST(CannTarget, BroadcastInPlaceOrDiagnosed) {
  const auto r =
      run("void f(float *a, float *b, HcclComm c, aclrtStream s) {\n"
          "  ncclBroadcast(a, a, 4, ncclFloat, 0, c, s);\n"
          "  ncclBroadcast(a, b, 4, ncclFloat, 0, c, s);\n}\n");
  EXPECT_TRUE(has(r.output, "HcclBroadcast(a, 4, HCCL_DATA_TYPE_FP32, 0, c, s);")) << r.output;
  EXPECT_TRUE(has(r.output, "ncclBroadcast(a, b, 4, HCCL_DATA_TYPE_FP32, 0, c, s);")) << r.output;
  EXPECT_EQ(count(r, "FRY1604"), 1u);
}

TEST(CannTarget, GemmRewrittenWithSwappedOperands) {
  const auto r =
      run("void f(cublasHandle_t h, aclrtStream s, float *A, float *B, float *C) {\n"
          "  float one = 1.0f, zero = 0.0f;\n"
          "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 5, 6, &one, A, 4, B, 6, &zero, C, 4);\n}\n");
  EXPECT_TRUE(has(r.output,
                  "aclCreateTensor(ferry_self_shape, 2, ACL_FLOAT, ferry_self_strides, 0, ACL_FORMAT_ND, "
                  "ferry_self_shape, 2, (void *)(B))"))
      << r.output;
  EXPECT_TRUE(has(r.output, "int64_t ferry_self_shape[2] = {5, 6}")) << r.output;
  EXPECT_TRUE(has(r.output, "aclnnMatmul(ferry_ws, ferry_ws_size, ferry_executor, s);")) << r.output;
  EXPECT_EQ(count(r, "FRY4606"), 1u);
}

TEST(CannTarget, GemmWithAlphaTwoIsDiagnosed) {
  const auto r =
      run("void f(cublasHandle_t h, aclrtStream s, float *A, float *B, float *C) {\n"
          "  float two = 2.0f, zero = 0.0f;\n"
          "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 5, 6, &two, A, 4, B, 6, &zero, C, 4);\n}\n");
  EXPECT_EQ(count(r, "FRY1606"), 1u);
  for (const auto& d : r.diagnostics)  // one diagnostic at the call, not the table's generic one too
    EXPECT_FALSE(to_string(d.code) == "FRY4001" && d.col == 3) << d.message;
  EXPECT_TRUE(has(r.output, "cublasSgemm(h,"));
}

TEST(CannTarget, KernelSkeletonIsASideOutput) {
  const auto r =
      run("__global__ void k(const float *x, float *y, int n) { y[0] = x[0]; }\n"
          "void f(const float *x, float *y, aclrtStream s) { k<<<8, 256>>>(x, y, 3); }\n",
          "src/vec.cu");
  ASSERT_EQ(r.side_outputs.size(), 1u);
  EXPECT_EQ(r.side_outputs[0].name, "vec_ascendc_skeleton.cpp");
  const std::string& sk = r.side_outputs[0].content;
  EXPECT_TRUE(has(sk, "ASCEND C SKELETON"));
  EXPECT_TRUE(has(sk, "extern \"C\" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, int n)")) << sk;
  EXPECT_TRUE(has(sk, "AscendC::GlobalTensor<float> xGm_;")) << sk;
  EXPECT_TRUE(has(r.output, "k<<<8, nullptr, s>>>(x, y, 3);")) << r.output;
  EXPECT_EQ(count(r, "FRY1601"), 1u);
}

TEST(CannTarget, CapacityCheck) {
  EXPECT_TRUE(cann::provably_at_least("n * sizeof(float)", "n*sizeof(float)"));
  EXPECT_TRUE(cann::provably_at_least("64 * sizeof(float)", "16 * 4"));
  EXPECT_FALSE(cann::provably_at_least("1024", "4096"));
  EXPECT_FALSE(cann::provably_at_least("n", "n * 4"));
  EXPECT_EQ(cann::constant_value("(2 + 3) * sizeof(double)"), 40);
  const auto r = run("void f(void *h, void *d) { aclrtMemcpy(h, 16, d, 32, ACL_MEMCPY_DEVICE_TO_HOST); }\n");
  EXPECT_EQ(count(r, "FRY4605"), 1u);
}

TEST(CannTarget, MigratedOutputIsStable) {
  const std::string src =
      "#include <cuda_runtime.h>\nint main() {\n  float *d;\n  cudaStream_t s;\n  cudaStreamCreate(&s);\n"
      "  cudaMalloc(&d, 64);\n  cudaMemcpyAsync(d, d, 64, cudaMemcpyDeviceToDevice, s);\n  return 0;\n}\n";
  const auto once = run(src);
  const auto twice = run(once.output);
  EXPECT_EQ(once.output, twice.output);
  EXPECT_EQ(count(twice, "FRY4605"), 0u);
}

}  // namespace
}  // namespace ferry::targets
