// The HIP → CUDA target: its derived table (no many-to-one name left undecided) and its passes.
#include <gtest/gtest.h>

#include <string>

#include "migrate/file_migration.h"
#include "targets/cuda/reverse_rules.h"
#include "targets/target.h"

namespace ferry::targets {
namespace {

std::string migrate_hip(std::string_view src, std::vector<Diagnostic>* diags = nullptr) {
  static const Options options;
  static const auto target = make_target("cuda", options);
  const ProjectContext ctx;
  migrate::FileResult r = migrate::migrate_buffer("t.hip", src, *target, options, ctx);
  if (diags) *diags = r.diagnostics;
  return r.output;
}

// A snippet as the body of a file that includes the runtime (so no header is inserted).
std::string snippet(std::string_view body) {
  const std::string out = migrate_hip("#include <hip/hip_runtime.h>\n" + std::string(body));
  const std::string_view head = "#include <cuda_runtime.h>\n";
  return out.starts_with(head) ? out.substr(head.size()) : "(header not converted) " + out;
}

std::string migrate_cuda(std::string_view src) {
  static const Options options;
  static const auto target = make_target("hip", options);
  const ProjectContext ctx;
  return migrate::migrate_buffer("t.cu", src, *target, options, ctx).output;
}

TEST(CudaTarget, NoManyToOneNameIsLeftUndecided) {
  rules::RuleSet set;
  cuda::ReverseStats stats;
  cuda::build_reverse_rules(set, &stats);
  std::string unresolved;
  for (const cuda::ManyToOne& m : stats.many_to_one) {
    if (m.how != "unresolved") continue;
    unresolved += "  " + std::string(rules::to_string(m.kind)) + "\t" + m.hip + "\t<-";
    for (const auto& c : m.candidates) unresolved += " " + c.cuda + " (" + c.origin + ")";
    unresolved += "\n";
  }
  EXPECT_TRUE(unresolved.empty()) << "HIP names reached from several CUDA names; decide each with a row in "
                                     "rules/hip2cuda/overrides.tsv:\n"
                                  << unresolved;
  EXPECT_GT(stats.derived, 1000u);
  EXPECT_GT(stats.explicit_rows, 50u);
}

TEST(CudaTarget, OverridesOnlyDecideManyToOneNames) {
  // An override row for a name that is not many-to-one is dead weight or a typo.
  rules::RuleSet set;
  cuda::ReverseStats stats;
  cuda::build_reverse_rules(set, &stats);
  for (const auto& r : set.all()) {
    if (r->origin().find("hip2cuda/overrides.tsv") == std::string::npos) continue;
    bool found = false;
    for (const cuda::ManyToOne& m : stats.many_to_one) found = found || m.hip == r->from;
    EXPECT_TRUE(found) << r->origin() << ": '" << r->from << "' is not reached from several CUDA names";
  }
}

TEST(CudaTarget, RenamesRuntimeAndHeaders) {
  EXPECT_EQ(migrate_hip("#include <hip/hip_runtime.h>\nhipMalloc(&p, n); hipStream_t s;\n"),
            "#include <cuda_runtime.h>\ncudaMalloc(&p, n); cudaStream_t s;\n");
}

TEST(CudaTarget, LaunchKernelGGL) {
  EXPECT_EQ(snippet("hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, stream, x, n);"),
            "k<<<dim3(g), dim3(b), 0, stream>>>(x, n);");
  EXPECT_EQ(snippet("hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float, 4>), g, b, shm, 0);"),
            "k<float, 4><<<g, b, shm, 0>>>();");
  EXPECT_EQ(snippet("hipLaunchKernelGGL((k<T>), g, b, 0, hipStreamPerThread, hipGetLastError());"),
            "k<T><<<g, b, 0, cudaStreamPerThread>>>(cudaGetLastError());");
}

TEST(CudaTarget, ShufflesAndVotesGetAFullMask) {
  EXPECT_EQ(snippet("v += __shfl_down(v, o); w = __shfl_xor(w, 1, 16); if (__any(p) && __all(q)) {}"),
            "v += __shfl_down_sync(0xffffffff, v, o); w = __shfl_xor_sync(0xffffffff, w, 1, 16); "
            "if (__any_sync(0xffffffff, p) && __all_sync(0xffffffff, q)) {}");
}

TEST(CudaTarget, BallotKeepsSixtyFourBits) {
  EXPECT_EQ(snippet("auto m = __ballot(x > 0);"), "auto m = (unsigned long long)__ballot_sync(0xffffffff, x > 0);");
  EXPECT_EQ(snippet("unsigned long long m = __ballot(x > 0);"),
            "unsigned long long m = __ballot_sync(0xffffffff, x > 0);");
  EXPECT_EQ(snippet("int n = __popcll(__ballot(p));"), "int n = __popcll(__ballot_sync(0xffffffff, p));");
  EXPECT_EQ(snippet("if ((__ballot(p) >> 32) != 0) {}"),
            "if (((unsigned long long)__ballot_sync(0xffffffff, p) >> 32) != 0) {}");
  EXPECT_EQ(snippet("unsigned long long a = __ballot(1);"), "unsigned long long a = __activemask();");
}

TEST(CudaTarget, WaveSizeAndWarpSize) {
  EXPECT_EQ(snippet("int w = __AMDGCN_WAVEFRONT_SIZE; int v = warpSize;"), "int w = 32; int v = warpSize;");
}

TEST(CudaTarget, SymbolsAreUnwrapped) {
  EXPECT_EQ(snippet("hipMemcpyToSymbol(HIP_SYMBOL(c), &h, sizeof h);"), "cudaMemcpyToSymbol(c, &h, sizeof h);");
}

TEST(CudaTarget, AmdOnlyFeaturesAreReported) {
  std::vector<Diagnostic> d;
  const std::string src =
      "int l = __builtin_amdgcn_mbcnt_lo(~0u, 0);\n"
      "hipExtLaunchMultiKernelMultiDevice(p, n, 0);\n"
      "#if __AMDGCN_CUMODE__\n#endif\n"
      "asm volatile(\"s_nop 0\");\n";
  EXPECT_EQ(migrate_hip(src, &d), src);
  std::vector<std::string> codes;
  for (const Diagnostic& x : d) codes.emplace_back(to_string(x.code));
  EXPECT_EQ(codes, (std::vector<std::string>{"FRY1201", "FRY1202", "FRY1203", "FRY1204"}));
}

TEST(CudaTarget, SyncwarpRoundTrips) {
  const std::string cuda = "__device__ void f() { __syncwarp(); }\n";
  const std::string hip = migrate_cuda(cuda);
  ASSERT_NE(hip.find("__builtin_amdgcn_wave_barrier"), std::string::npos) << hip;
  // The runtime include the forward direction added is recorded as added: the way back drops it.
  EXPECT_EQ(migrate_hip(hip), cuda);
}

TEST(CudaTarget, WarpCodeRoundTrips) {
  const std::string cuda =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(float* x, unsigned* out) {\n"
      "  float v = x[threadIdx.x];\n"
      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
      "  unsigned m = __ballot_sync(0xffffffff, v > 0);\n"
      "  if (threadIdx.x == 0) out[0] = __popc(m) + __popc(__activemask());\n"
      "}\n";
  const std::string hip = migrate_cuda(cuda);
  const std::string back = migrate_hip(hip);
  EXPECT_EQ(migrate_cuda(back), hip) << back;
}

}  // namespace
}  // namespace ferry::targets
