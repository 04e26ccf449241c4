// HIP -> CUDA build files (docs/build-files.md, "The other way"): what the Makefile and CMake
// migrators share (to_cuda.h), and the hipcc command words. The migrators are
// build_files_cuda_make.cpp and build_files_cuda_cmake.cpp; the CUDA -> HIP direction is
// build_files.cpp; the record that makes CUDA -> HIP -> CUDA exact is roundtrip_record.cpp.
#include <algorithm>
#include <set>

#include "buildsys/roundtrip_record.h"
#include "buildsys/to_cuda.h"

namespace ferry::buildsys {
namespace to_cuda {

Diagnostic diag(Diag code, Severity sev, const std::string& rel, std::uint32_t line, std::string msg,
                std::string hint) {
  return {code, sev, rel, line, 0, std::move(msg), std::move(hint)};
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr RocLib kRocLibs[] = {
    {"amdhip64", "cudart", "CUDA::cudart"},
    {"hipblas", "cublas", "CUDA::cublas"},
    {"rocblas", "cublas", "CUDA::cublas"},
    {"hipblaslt", "cublasLt", "CUDA::cublasLt"},
    {"hiprand", "curand", "CUDA::curand"},
    {"rocrand", "curand", "CUDA::curand"},
    {"hipfft", "cufft", "CUDA::cufft"},
    {"rocfft", "cufft", "CUDA::cufft"},
    {"hipsparse", "cusparse", "CUDA::cusparse"},
    {"rocsparse", "cusparse", "CUDA::cusparse"},
    {"hipsolver", "cusolver", "CUDA::cusolver"},
    {"rocsolver", "cusolver", "CUDA::cusolver"},
    {"rccl", "nccl", "nccl"},
    {"MIOpen", "cudnn", "cudnn"},
    {"hiprtc", "nvrtc", "CUDA::nvrtc"},
    {"hiprtc-builtins", "", "",
     "nothing (hipRTC's builtins, linked beside its static library; NVRTC's shared library loads its own)"},
    {"roctx64", "", ""},
    {"roctracer64", "", ""},
    {"hipcub", "", ""},
    {"rocprim", "", ""},
    {"rocprim_hip", "", ""},
    {"rocthrust", "", ""},
    {"amd_comgr", "", "", "nothing (AMD's code object manager: CUDA's runtime loads code objects itself)"},
    {"hsa-runtime64", "", "", "nothing (AMD's HSA runtime, under HIP's; CUDA has no such layer to link)"},
};
const RocLib* find_roc_lib(std::string_view name) {
  for (const RocLib& l : kRocLibs)
    if (name == l.rocm) return &l;
  return nullptr;
}
// CMake imported targets of ROCm's packages (hip::device, roc::hipblas, hip::hipcub, ...).
const RocLib* find_roc_target(std::string_view t) {
  if (t == "hip::device" || t == "hip::host" || t == "hip::amdhip64") return find_roc_lib("amdhip64");
  for (std::string_view ns : {"hip::", "roc::", "rocm::"})
    if (starts_with(t, ns)) return find_roc_lib(t.substr(ns.size()));
  if (t == "MIOpen") return find_roc_lib("MIOpen");
  if (t == "amd_comgr" || t == "amd_comgr::amd_comgr") return find_roc_lib("amd_comgr");
  if (t == "hsa-runtime64::hsa-runtime64") return find_roc_lib("hsa-runtime64");
  return nullptr;
}
// find_package names of ROCm's packages: all become find_package(CUDAToolkit).
bool is_rocm_package(std::string_view p) {
  static const std::set<std::string, std::less<>> k = {
      "hip",    "HIP",    "hipblas",   "rocblas",   "hipblaslt", "hiprand",   "rocrand",
      "hipfft", "rocfft", "hipsparse", "rocsparse", "hipsolver", "rocsolver", "rccl",
      "miopen", "MIOpen", "hipcub",    "rocprim",   "rocthrust", "hiprtc",    "roctracer"};
  return k.contains(p);
}

bool is_hipcc_word(std::string_view w) {
  while (!w.empty() && (w.front() == '@' || w.front() == '-' || w.front() == '+')) w.remove_prefix(1);
  return w == "hipcc" || w.ends_with("/hipcc") || w == "hipcc.pl" || w.ends_with("/hipcc.pl");
}
bool is_nvcc_word(std::string_view w) { return w == "nvcc" || w.ends_with("/nvcc"); }
// A CMake value naming hipcc: the word itself or a variable of that name (${HIP_HIPCC_EXECUTABLE},
// which find_package(hip) set, ${HIPCC}, $ENV{HIPCC}).
bool is_hipcc_value(std::string_view v) {
  if (is_hipcc_word(v)) return true;
  if (!(starts_with(v, "${") || starts_with(v, "$ENV{")) || !v.ends_with("}")) return false;
  return v.find("HIPCC") != std::string_view::npos;
}
bool is_rocm_clang_value(std::string_view v) {
  if (v == "amdclang++" || v.ends_with("/amdclang++") || v == "amdclang" || v.ends_with("/amdclang")) return true;
  if (!(v.ends_with("llvm/bin/clang++") || v.ends_with("llvm/bin/clang"))) return false;
  for (std::string_view k : {"ROCM", "rocm", "HIP"})
    if (v.find(k) != std::string_view::npos) return true;
  return false;
}
// ${OpenMP_CXX_FLAGS} / ${OpenMP_C_FLAGS}: FindOpenMP's host compiler flags.
bool is_openmp_flags_ref(std::string_view v) { return v == "${OpenMP_CXX_FLAGS}" || v == "${OpenMP_C_FLAGS}"; }

// "sm_90", "compute_90", "90" -> 90; 0 when it is not an NVIDIA architecture.
int sm_number(std::string_view a) {
  for (std::string_view p : {"sm_", "compute_", "lto_"})
    if (starts_with(a, p)) a.remove_prefix(p.size());
  int n = 0;
  std::size_t k = 0;
  while (k < a.size() && std::isdigit(static_cast<unsigned char>(a[k]))) n = n * 10 + (a[k++] - '0');
  while (k < a.size() && std::isalpha(static_cast<unsigned char>(a[k]))) ++k;  // sm_90a
  return k == a.size() && k > 0 && n >= 10 ? n : 0;
}
// The architecture the files get: --arch when it names an NVIDIA one, else sm_90.
std::string cuda_arch(const Options& o) { return sm_number(o.arch) ? o.arch : std::string("sm_90"); }
std::string cuda_arch_number(const Options& o) {
  std::string a = cuda_arch(o);
  for (std::string_view p : {"sm_", "compute_"})
    if (starts_with(a, p)) a = a.substr(p.size());
  return a;
}
rules::CudaVersion version(const Options& o) {
  auto v = rules::parse_cuda_version(o.cuda_version);
  return v ? *v : rules::CudaVersion{};
}

// Host-compiler flags nvcc does not take itself.
bool is_host_only_flag(std::string_view w) {
  static const std::set<std::string, std::less<>> nvcc_knows = {"-Wno-deprecated-gpu-targets",
                                                                "-Wno-deprecated-declarations",
                                                                "-Wreorder",
                                                                "-Wdefault-stream-launch",
                                                                "-Wmissing-launch-bounds",
                                                                "-Wext-lambda-captures-this",
                                                                "-Werror",
                                                                "-W",
                                                                "-m64",
                                                                "-m32"};
  if (nvcc_knows.contains(w) || starts_with(w, "-Werror=")) return false;
  if (starts_with(w, "-ftz=") || starts_with(w, "-fmad=") || starts_with(w, "-Wl,")) return false;
  return (starts_with(w, "-W") && w.size() > 2) || (starts_with(w, "-f") && w.size() > 2) ||
         (starts_with(w, "-m") && w.size() > 2) || starts_with(w, "-pedantic") || w == "-pthread" || w == "-rdynamic" ||
         w == "-ansi";
}

// The text with the CUDA lines the CUDA -> HIP migration recorded put back (roundtrip_record.h);
// a note in `r` for each record whose lines were edited since (`what`: "flags", "settings").
Restored restore_recorded(const std::string& rel, std::string_view text, std::string_view what, Result& r) {
  Restored restored = restore_originals(text);
  for (std::uint32_t l : restored.edited)
    r.diagnostics.push_back(diag(Diag::BuildRecordEdited, Severity::Note, rel, l,
                                 "lines recorded by the CUDA -> HIP migration were edited since: migrated from HIP",
                                 "check the CUDA " + std::string(what) + " of these lines"));
  return restored;
}

// `-DWAVE64`, `-D WAVE64`, `-DWARP_SIZE=64`: a user macro that selects wavefront-64 code
// (SourceFacts, or its name says so) -> dropped, or its width 64 -> 32.
std::optional<Wave64Define> wave64_define(const std::vector<std::string>& w, std::size_t i, const Options& o) {
  std::string def, written = w[i];
  std::size_t words = 1;
  if (w[i] == "-D" && i + 1 < w.size()) {
    def = w[i + 1];
    written += " " + def;
    words = 2;
  } else if (starts_with(w[i], "-D") && w[i].size() > 2) {
    def = w[i].substr(2);
  } else {
    return std::nullopt;
  }
  const std::size_t eq = def.find('=');
  const std::string name = def.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : def.substr(eq + 1);
  auto source = [](const std::map<std::string, std::string>& m, const std::string& n) {
    const auto it = m.find(n);
    return it == m.end() || it->second.empty() ? std::string("its name says so")
                                               : "the sources test it at " + it->second;
  };
  if ((o.facts.wave64_macros.contains(name) || is_wave64_macro_name(name)) && value != "0") {
    return Wave64Define{words, "",
                        "'" + written + "' dropped: " + name + " selects wavefront-64 code (" +
                            source(o.facts.wave64_macros, name) + "); CUDA warps have 32 lanes"};
  }
  if ((o.facts.width_macros.contains(name) || is_width_macro_name(name)) && value == "64") {
    return Wave64Define{words, (words == 2 ? "-D " : "-D") + name + "=32",
                        "'" + written + "' -> '-D" + name + "=32': " + name + " is the wavefront width (" +
                            source(o.facts.width_macros, name) + "); CUDA warps have 32 lanes"};
  }
  return std::nullopt;
}

namespace {
// The first place of a flag's list (SourceFacts) that lies under the folder of build file `rel`
// ("" when none does).
std::string needed_under(const std::string& list, const std::string& rel) {
  const std::size_t slash = rel.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : rel.substr(0, slash + 1);
  for (std::size_t b = 0; b < list.size();) {
    std::size_t e = list.find(';', b);
    if (e == std::string::npos) e = list.size();
    const std::string at = list.substr(b, e - b);
    if (starts_with(at, dir)) return at;
    b = e + 1;
  }
  return {};
}
}  // namespace

std::string needed_nvcc_flags(const Options& o, const std::string& rel) {
  std::string f;
  if (!needed_under(o.facts.extended_lambda, rel).empty()) f += " --extended-lambda";
  if (!needed_under(o.facts.relaxed_constexpr, rel).empty()) f += " --expt-relaxed-constexpr";
  return f;
}
std::string driver_api_under(const Options& o, const std::string& rel) { return needed_under(o.facts.driver_api, rel); }
void note_flags_added(const Options& o, const std::string& rel, std::uint32_t line, std::vector<Diagnostic>& diags) {
  if (const std::string at = needed_under(o.facts.extended_lambda, rel); !at.empty())
    diags.push_back(diag(Diag::BuildNvccFlagAdded, Severity::Note, rel, line,
                         "'--extended-lambda' added: the code has __device__ lambdas (" + at +
                             "), which hipcc compiles as they are and nvcc only with this flag"));
  if (const std::string at = needed_under(o.facts.relaxed_constexpr, rel); !at.empty())
    diags.push_back(diag(Diag::BuildNvccFlagAdded, Severity::Note, rel, line,
                         "'--expt-relaxed-constexpr' added: device code calls a constexpr host function (" + at +
                             "), which hipcc allows and nvcc only with this flag"));
}

}  // namespace to_cuda

using namespace to_cuda;

std::vector<std::string> map_hipcc_words(const std::vector<std::string>& w, const Options& o, const std::string& rel,
                                         std::uint32_t line, std::vector<Diagnostic>& diags, bool host_flags) {
  std::vector<std::string> out(w.begin(), w.end());
  bool arch_done = false;
  const int oldest = rules::oldest_supported_sm(version(o));
  auto note = [&](std::string msg) {
    diags.push_back(diag(Diag::BuildMapped, Severity::Note, rel, line, std::move(msg)));
  };
  auto map = [&](std::size_t i, std::string to) {
    note("'" + w[i] + "' -> '" + to + "'");
    out[i] = std::move(to);
  };
  auto drop = [&](std::size_t i, std::size_t n, const std::string& why) {
    std::string what;
    for (std::size_t k = i; k < i + n && k < w.size(); ++k) {
      what += (k > i ? " " : "") + w[k];
      out[k].clear();
    }
    diags.push_back(diag(Diag::BuildNvccFlagDropped, Severity::Warning, rel, line,
                         "hipcc-only flag '" + what + "' dropped: " + why,
                         "check whether the CUDA build needs an equivalent"));
  };
  auto arch = [&](std::size_t i, std::size_t n, const std::string& why) {
    std::string what;
    for (std::size_t k = i; k < i + n && k < w.size(); ++k) {
      what += (k > i ? " " : "") + w[k];
      out[k].clear();
    }
    if (!arch_done) out[i] = "-arch=" + cuda_arch(o);
    note(arch_done ? "'" + what + "' dropped (architecture already given)"
                   : "'" + what + "' -> '-arch=" + cuda_arch(o) + "' " + why);
    arch_done = true;
  };
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& s = w[i];
    const bool has_next = i + 1 < w.size();
    if (s == "hipify-perl" || s.ends_with("/hipify-perl") || s == "hipify-clang" || s.ends_with("/hipify-clang")) {
      // A build step that made HIP from CUDA: the CUDA source is the source now; copy it through.
      bool redirect = false;
      std::size_t e = i + 1;
      for (; e < w.size() && w[e] != "&&" && w[e] != ";" && w[e] != "||"; ++e) redirect = redirect || w[e] == ">";
      map(i, redirect ? "cat" : "cp");
      for (std::size_t k = i + 1; k < e; ++k)
        if (w[k].size() > 1 && w[k][0] == '-') out[k].clear();
      i = e - 1;
    } else if (is_hipcc_word(s)) {
      std::string lead;
      for (char c : s)
        if (c == '@' || c == '-' || c == '+') lead += c;
        else break;
      map(i, lead + "nvcc" + needed_nvcc_flags(o, rel));
      if (!needed_nvcc_flags(o, rel).empty()) note_flags_added(o, rel, line, diags);
    } else if (starts_with(s, "--offload-arch=") || starts_with(s, "-offload-arch=") ||
               starts_with(s, "--amdgpu-target=") || starts_with(s, "--cuda-gpu-arch=gfx")) {
      arch(i, 1, "(the chosen architecture; --arch picks another)");
    } else if ((s == "--offload-arch" || s == "--amdgpu-target") && has_next) {
      arch(i, 2, "(the chosen architecture; --arch picks another)");
      ++i;
    } else if ((starts_with(s, "-arch=") || starts_with(s, "--gpu-architecture=")) &&
               sm_number(s.substr(s.find('=') + 1)) && sm_number(s.substr(s.find('=') + 1)) < oldest) {
      arch(i, 1, "(CUDA " + version(o).str() + " compiles for sm_" + std::to_string(oldest) + " and newer)");
      diags.back().code = Diag::BuildArchTooOld;
      diags.back().severity = Severity::Warning;
    } else if (s == "-x" && has_next && w[i + 1] == "hip") {
      map(i + 1, "cu");
      ++i;
    } else if (s == "-xhip") {
      map(i, "-x cu");
    } else if (s == "--genco" || s == "-genco") {
      map(i, "--fatbin");  // a code object loaded at run time: cudaLibraryLoadFromFile takes fatbins
    } else if (s == "--cuda-host-only" || s == "--cuda-device-only" || starts_with(s, "--offload-device-only") ||
               starts_with(s, "--offload-host-only") || s == "-emit-llvm" || s == "--emit-static-lib") {
      drop(i, 1, "a step of the AMD toolchain (host/device split, LLVM IR, static device libraries) with no nvcc form");
    } else if (s == "-fgpu-rdc") {
      map(i, "-rdc=true");
    } else if (s == "-fno-gpu-rdc") {
      out[i].clear();
      note("'-fno-gpu-rdc' dropped (whole-program compilation is nvcc's default)");
    } else if (s == "-gline-tables-only") {
      map(i, "-lineinfo");
    } else if (s == "-ffast-math") {
      map(i, "--use_fast_math");
    } else if (s == "-fgpu-default-stream=per-thread") {
      map(i, "--default-stream per-thread");
    } else if (s == "-fgpu-flush-denormals-to-zero") {
      map(i, "-ftz=true");
    } else if (s == "-munsafe-fp-atomics" || s == "-mcumode" || s == "-mno-cumode" || s == "-mwavefrontsize64" ||
               s == "-mno-wavefrontsize64" || s == "-fhip-new-launch-api" || starts_with(s, "--rocm-path=") ||
               starts_with(s, "--hip-path=") || starts_with(s, "-Rpass-analysis=") || s == "-fno-gpu-sanitize" ||
               starts_with(s, "--hip-device-lib")) {
      drop(i, 1, "AMD code generation option");
    } else if (s == "--hip-link" || s == "-hip-link") {
      out[i].clear();
      note("'" + s + "' dropped: nvcc links the CUDA runtime itself");
    } else if (auto d = wave64_define(w, i, o)) {
      for (std::size_t k = i; k < i + d->words; ++k) out[k].clear();
      out[i] = d->replacement;
      diags.push_back(diag(Diag::BuildWave64Macro, Severity::Warning, rel, line, d->message,
                           "CUDA warps have 32 lanes: the 32-lane code path is built"));
      i += d->words - 1;
    } else if (s == "-D__HIP_PLATFORM_AMD__" || s == "-D__HIP_PLATFORM_HCC__" || s == "-D__HIP_PLATFORM_AMD__=1" ||
               s == "-D__HIP_PLATFORM_HCC__=1") {
      out[i].clear();
      note("'" + s + "' dropped: the code is built for NVIDIA now, AMD-only branches must stay off");
    } else if (starts_with(s, "-l") && find_roc_lib(s.substr(2))) {
      const RocLib* l = find_roc_lib(s.substr(2));
      if (*l->cuda) {
        // HIP's libamdhip64 also held the driver API; CUDA's is libcuda.
        const std::string driver = std::string_view(l->cuda) == "cudart" ? driver_api_under(o, rel) : "";
        map(i, std::string("-l") + l->cuda + (driver.empty() ? "" : " -lcuda"));
        if (!driver.empty()) note("'-lcuda' added: the sources call the driver API (" + driver + ")");
      } else {
        out[i].clear();
        note("'" + s + "' dropped: " +
             (l->none_why ? std::string(l->none_why)
              : std::string_view(l->rocm).starts_with("roct")
                  ? "NVTX 3 is header-only in CUDA"
                  : "CUB and Thrust come with the CUDA toolkit, header-only"));
      }
    } else if (s.find("hipconfig") != std::string::npos && starts_with(s, "$(shell")) {
      out[i].clear();
      note("'" + s + "' dropped: hipconfig is not on a CUDA machine");
    } else if (host_flags && starts_with(s, "-Wl,")) {
      map(i, "-Xlinker=" + s.substr(4));
    } else if (host_flags && is_host_only_flag(s) &&
               !(i > 0 && (w[i - 1] == "-Xcompiler" || w[i - 1] == "--compiler-options"))) {
      // (after `-Xcompiler`, which hipcc takes too, the flag already goes to the host compiler)
      map(i, "-Xcompiler=" + s);
    }
  }
  return out;
}

}  // namespace ferry::buildsys
