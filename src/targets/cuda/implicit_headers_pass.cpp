// <hip/hip_runtime.h> brings much of the standard library with it (<cstdio>, <cstdint>, <cassert>,
// <string>, <memory>, <array>, <tuple>, <complex>, <chrono>, <sstream>: measured with hipcc 5.2
// against nvcc 13, docs/targets.md); <cuda_runtime.h> does not. A HIP file that uses those names
// without including their header compiles with hipcc and fails with nvcc ("printf is undefined").
// The same holds for the driver API: hip_runtime.h declares hipMemAllocationProp and hipMemCreate,
// whose CUDA names (CUmemAllocationProp, cuMemCreate) are in <cuda.h>, not <cuda_runtime.h>.
#include <set>
#include <string>
#include <vector>

#include "rewrite/roundtrip_record.h"
#include "targets/cuda/passes.h"

namespace ferry::targets::cuda {
namespace {

using migrate::FileMigration;

struct Provided {
  std::string_view name;
  bool std_qualified;  // std::name (C++ names), else the bare C name
  std::string_view header;
};
// (hip_runtime_api.h also declares the profiler range; CUDA's cudaProfilerStart is in its own header.)
constexpr Provided kProvided[] = {
    {"printf", false, "cstdio"},
    {"fprintf", false, "cstdio"},
    {"sprintf", false, "cstdio"},
    {"snprintf", false, "cstdio"},
    {"vprintf", false, "cstdio"},
    {"vfprintf", false, "cstdio"},
    {"puts", false, "cstdio"},
    {"fputs", false, "cstdio"},
    {"fflush", false, "cstdio"},
    {"fopen", false, "cstdio"},
    {"fclose", false, "cstdio"},
    {"fread", false, "cstdio"},
    {"fwrite", false, "cstdio"},
    {"fgets", false, "cstdio"},
    {"perror", false, "cstdio"},
    {"stderr", false, "cstdio"},
    {"stdout", false, "cstdio"},
    {"FILE", false, "cstdio"},
    {"sscanf", false, "cstdio"},
    {"fscanf", false, "cstdio"},
    {"printf", true, "cstdio"},
    {"fprintf", true, "cstdio"},
    {"snprintf", true, "cstdio"},
    {"uint8_t", true, "cstdint"},
    {"uint16_t", true, "cstdint"},
    {"uint32_t", true, "cstdint"},
    {"uint64_t", true, "cstdint"},
    {"int8_t", true, "cstdint"},
    {"int16_t", true, "cstdint"},
    {"int32_t", true, "cstdint"},
    {"int64_t", true, "cstdint"},
    {"uintptr_t", true, "cstdint"},
    // the bare C names, as C code and most HIP code write them: <stdint.h> declares them globally
    {"uint8_t", false, "stdint.h"},
    {"uint16_t", false, "stdint.h"},
    {"uint32_t", false, "stdint.h"},
    {"uint64_t", false, "stdint.h"},
    {"int8_t", false, "stdint.h"},
    {"int16_t", false, "stdint.h"},
    {"int32_t", false, "stdint.h"},
    {"int64_t", false, "stdint.h"},
    {"uintptr_t", false, "stdint.h"},
    {"intptr_t", false, "stdint.h"},
    {"assert", false, "cassert"},
    {"string", true, "string"},
    {"to_string", true, "string"},
    {"stoi", true, "string"},
    {"stof", true, "string"},
    {"unique_ptr", true, "memory"},
    {"shared_ptr", true, "memory"},
    {"make_unique", true, "memory"},
    {"make_shared", true, "memory"},
    {"array", true, "array"},
    {"tuple", true, "tuple"},
    {"make_tuple", true, "tuple"},
    {"tie", true, "tuple"},
    {"complex", true, "complex"},
    {"chrono", true, "chrono"},
    {"ostringstream", true, "sstream"},
    {"istringstream", true, "sstream"},
    {"stringstream", true, "sstream"},
    {"hipProfilerStart", false, "cuda_profiler_api.h"},
    {"hipProfilerStop", false, "cuda_profiler_api.h"},
};

// The C header spellings of the same headers also count as included.
bool includes(const std::vector<std::string_view>& have, std::string_view header) {
  for (std::string_view h : have) {
    if (h == header) return true;
    if (header.starts_with('c') && h == std::string(header.substr(1)) + ".h") return true;  // <stdio.h>
    if (header.ends_with(".h") && h == "c" + std::string(header.substr(0, header.size() - 2)))
      return true;  // <cstdint>
  }
  return false;
}

// The standard headers `rel` gets through the project's own headers it includes (quoted includes
// resolved against the including file's folder, else by path suffix), as recorded by
// CudaTarget::project_scans.
void through_project_headers(const targets::ProjectContext& ctx, const std::string& rel, std::set<std::string>& seen,
                             std::vector<std::string_view>& have) {
  if (!seen.insert(rel).second) return;
  const auto headers = ctx.includes.find(rel);
  if (!headers) return;
  const std::string dir = rel.find('/') == std::string::npos ? "" : rel.substr(0, rel.rfind('/') + 1);
  for (const std::string& raw : *headers) {
    const std::string path = raw.substr(1, raw.size() - 2);
    if (raw.front() == '<') {
      have.push_back(std::string_view(raw).substr(1, raw.size() - 2));
      continue;
    }
    const std::string target = ctx.project_include(dir, path);
    through_project_headers(ctx, target, seen, have);
  }
}

// A name <cuda.h> declares (the driver API: CUmemAllocationProp, CU_MEM_LOCATION_TYPE_DEVICE,
// cuMemCreate, CUDA_ARRAY3D_DESCRIPTOR), not <cuda_runtime.h> (cudaMalloc, CUDART_VERSION).
bool is_cuda_h_name(std::string_view n) {
  if (n.starts_with("CUDART")) return false;
  if (n.starts_with("CU")) return true;
  return n.size() > 2 && n.starts_with("cu") && n[2] >= 'A' && n[2] <= 'Z';
}

// Headers whose CUDA twin brings <stdint.h> (cuda.h, cublas_api.h and cusparse.h include it): a
// file that has one needs no <stdint.h> of its own.
bool brings_stdint(const std::vector<std::string_view>& have) {
  static constexpr std::string_view kBrings[] = {
      "cuda.h",      "hipblas.h",    "hipblas/hipblas.h", "hipsparse.h", "hipsparse/hipsparse.h",
      "cublas_v2.h", "cublas_api.h", "cusparse.h"};
  for (std::string_view h : have)
    for (std::string_view b : kBrings)
      if (h == b) return true;
  return false;
}

}  // namespace

void implicit_headers_pass(FileMigration& file) {
  // The way back of a round trip (the input tree is Ferry's CUDA -> HIP output): the CUDA originals
  // compiled with the includes they had, and the records put back the ones HIP did not keep.
  if (file.project().migrated_by == "hip") return;
  std::vector<std::string_view> have;
  bool relies_on_hip_runtime = false;
  const lex::TokenList& toks = file.tokens();
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (file.code(ci).kind != lex::Kind::HeaderName) continue;
    const std::string_view raw = file.text(ci);
    const std::string_view path = raw.substr(1, raw.size() - 2);
    have.push_back(path);
    if (path != "hip/hip_runtime.h" && path != "hip/hip_runtime_api.h") continue;
    // An include the CUDA -> HIP migration added (`/* ferry-cuda: (none) */`): the CUDA original
    // compiled without it, so nothing depends on what it brings.
    bool added = false;
    for (std::size_t t = file.token_index(ci) + 1; t < toks.size() && toks[t].kind != lex::Kind::Newline; ++t)
      added =
          added || (toks[t].kind == lex::Kind::BlockComment && toks[t].text(file.source()) == rewrite::record::kAdded);
    relies_on_hip_runtime = relies_on_hip_runtime || !added;
  }
  // A header that uses HIP without including it: its includers' <hip/hip_runtime.h> came first.
  relies_on_hip_runtime = relies_on_hip_runtime || relies_on_includers_runtime(file);
  if (!relies_on_hip_runtime) return;
  std::set<std::string> seen;
  through_project_headers(file.project(), std::string(file.path()), seen, have);
  std::vector<std::string_view> added;
  // Headers the forward migration recorded: record_restore_pass puts them back.
  const std::vector<std::string> restored = rewrite::record::recorded_headers(file.tokens(), file.source());
  for (const std::string& h : restored) have.push_back(h);
  for (std::size_t ci = 0; ci < file.code_size(); ++ci) {
    if (!file.is_identifier(ci) || file.code(ci).in_directive) continue;
    const std::string_view name = file.text(ci);
    const bool qualified = ci >= 2 && file.is(ci - 1, "::") && file.is(ci - 2, "std");
    if (!qualified && (file.is_member_or_qualified(ci) || (ci > 0 && file.is(ci - 1, "::")))) continue;
    if (!qualified && !includes(have, "cuda.h") && !includes(added, "cuda.h"))
      if (const rules::Rule* r = file.target().rules().find_identifier(name);
          r && r->family == "driver" && r->has_replacement() && is_cuda_h_name(r->to)) {
        added.push_back("cuda.h");
        file.insert_line_at_top("#include <cuda.h>" + added_record(file) + "\n");
        file.count_converted("headers");
        file.diag(Diag::ImplicitHeaderAdded, Severity::Note, ci,
                  "<cuda.h> added: the file uses '" + std::string(name) + "' (CUDA's " + std::string(r->to) +
                      "), which <hip/hip_runtime.h> declared for it and <cuda_runtime.h> does not",
                  "");
      }
    for (const Provided& p : kProvided) {
      if (p.name != name || p.std_qualified != qualified) continue;
      if (includes(have, p.header) || includes(added, p.header)) break;
      if (p.header == "stdint.h" && (brings_stdint(have) || brings_stdint(added))) break;
      added.push_back(p.header);
      file.insert_line_at_top("#include <" + std::string(p.header) + ">" + added_record(file) + "\n");
      file.count_converted("headers");
      file.diag(Diag::ImplicitHeaderAdded, Severity::Note, ci,
                "<" + std::string(p.header) + "> added: the file uses '" + std::string(name) +
                    "', which <hip/hip_runtime.h> declared for it and <cuda_runtime.h> does not",
                "");
      break;
    }
  }
}

}  // namespace ferry::targets::cuda
