// HIP -> CUDA build files (docs/build-files.md, "The other way"). The CUDA -> HIP direction is
// build_files.cpp; the record that makes CUDA -> HIP -> CUDA exact is roundtrip_record.cpp.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "buildsys/build_files.h"
#include "buildsys/make_syntax.h"
#include "buildsys/roundtrip_record.h"
#include "buildsys/text_edits.h"
#include "rules/cuda_version.h"

namespace ferry::buildsys {
namespace {

Diagnostic diag(Diag code, Severity sev, const std::string& rel, std::uint32_t line, std::string msg,
                std::string hint = "") {
  return {code, sev, rel, line, 0, std::move(msg), std::move(hint)};
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// ROCm libraries -> CUDA: -l name, CMake target, and whether CUDA ships it as a library at all
// (hipCUB, rocPRIM, rocThrust are header-only; CCCL comes with every CUDA toolkit).
struct RocLib {
  const char* rocm;         // -l name / plain CMake name
  const char* cuda;         // -l name ("" = nothing to link)
  const char* cuda_target;  // CMake imported target ("" = nothing to link)
};
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
    {"roctx64", "", ""},
    {"roctracer64", "", ""},
    {"hipcub", "", ""},
    {"rocprim", "", ""},
    {"rocprim_hip", "", ""},
    {"rocthrust", "", ""},
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

}  // namespace

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
      map(i, lead + "nvcc");
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
    } else if (s == "-D__HIP_PLATFORM_AMD__" || s == "-D__HIP_PLATFORM_HCC__" || s == "-D__HIP_PLATFORM_AMD__=1" ||
               s == "-D__HIP_PLATFORM_HCC__=1") {
      out[i].clear();
      note("'" + s + "' dropped: the code is built for NVIDIA now, AMD-only branches must stay off");
    } else if (starts_with(s, "-l") && find_roc_lib(s.substr(2))) {
      const RocLib* l = find_roc_lib(s.substr(2));
      if (*l->cuda) {
        map(i, std::string("-l") + l->cuda);
      } else {
        out[i].clear();
        note("'" + s + "' dropped: " +
             (std::string_view(l->rocm).starts_with("roct")
                  ? "NVTX 3 is header-only in CUDA"
                  : "CUB and Thrust come with the CUDA toolkit, header-only"));
      }
    } else if (s.find("hipconfig") != std::string::npos && starts_with(s, "$(shell")) {
      out[i].clear();
      note("'" + s + "' dropped: hipconfig is not on a CUDA machine");
    } else if (host_flags && starts_with(s, "-Wl,")) {
      map(i, "-Xlinker=" + s.substr(4));
    } else if (host_flags && is_host_only_flag(s)) {
      map(i, "-Xcompiler=" + s);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Makefiles
// ------------------------------------------------------------------------------------------
namespace {

// $(NAME), ${NAME}, $(NAME:a=b) referenced in `s`.
std::vector<std::string> var_refs(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    if (s[i] != '$' || (s[i + 1] != '(' && s[i + 1] != '{')) continue;
    std::size_t k = i + 2;
    while (k < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' || s[k] == '.' || s[k] == '-'))
      ++k;
    if (k > i + 2 && k < s.size() && (s[k] == ')' || s[k] == '}' || s[k] == ':'))
      out.emplace_back(s.substr(i + 2, k - i - 2));
  }
  return out;
}
// "$(NAME)" / "${NAME}" exactly (a leading @ or - is allowed, as recipes write them).
std::string whole_ref(std::string_view w) {
  while (!w.empty() && (w.front() == '@' || w.front() == '-' || w.front() == '+')) w.remove_prefix(1);
  if (w.size() < 4 || w[0] != '$' || !((w[1] == '(' && w.back() == ')') || (w[1] == '{' && w.back() == '}'))) return {};
  const std::string_view n = w.substr(2, w.size() - 3);
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return {};
  return std::string(n);
}

struct Assignment {
  std::string name;
  std::size_t value_begin;  // offset of the value in the line's code
};
// `[override|export] NAME op value`; nullopt for rules, directives and recipes.
std::optional<Assignment> parse_assignment(std::string_view code) {
  std::size_t i = 0;
  auto skip_ws = [&] {
    while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  };
  skip_ws();
  for (std::string_view kw : {"override ", "export ", "private "})
    if (starts_with(code.substr(i), kw)) i += kw.size(), skip_ws();
  const std::size_t nb = i;
  while (i < code.size() &&
         (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '_' || code[i] == '.' || code[i] == '-'))
    ++i;
  if (i == nb) return std::nullopt;
  Assignment a{std::string(code.substr(nb, i - nb)), 0};
  skip_ws();
  for (std::string_view op : {"::=", ":=", "+=", "?=", "!=", "="})
    if (starts_with(code.substr(i), op)) {
      i += op.size();
      skip_ws();
      a.value_begin = i;
      return a;
    }
  return std::nullopt;
}

bool is_directive(std::string_view code) {
  std::size_t i = 0;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  const std::string_view c = code.substr(i);
  for (std::string_view d : {"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
                             "vpath", "unexport", "undefine"})
    if (starts_with(c, d) && (c.size() == d.size() || c[d.size()] == ' ' || c[d.size()] == '\t' || c[d.size()] == '(' ||
                              c[d.size()] == '\n'))
      return true;
  return false;
}

bool is_source_name(std::string_view w) {
  for (std::string_view e : {".cpp", ".cc", ".cxx", ".C", ".hip", ".c++"})
    if (w.ends_with(e)) return true;
  return false;
}

// ifeq (A, B) / ifeq "A" "B" / ifneq ...: the two operands.
std::optional<std::pair<std::string, std::string>> conditional_operands(std::string_view code) {
  std::size_t i = 0;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  std::string_view c = code.substr(i);
  if (starts_with(c, "else ")) c.remove_prefix(5);
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  if (starts_with(c, "ifeq")) c.remove_prefix(4);
  else if (starts_with(c, "ifneq")) c.remove_prefix(5);
  else return std::nullopt;
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
      s = s.substr(1, s.size() - 2);
    return std::string(s);
  };
  if (!c.empty() && c.front() == '(') {
    int depth = 0;
    std::size_t comma = std::string_view::npos, close = std::string_view::npos;
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (c[k] == '(') ++depth;
      else if (c[k] == ')' && --depth == 0) {
        close = k;
        break;
      } else if (c[k] == ',' && depth == 1 && comma == std::string_view::npos) comma = k;
    }
    if (comma == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
    return std::make_pair(trim(c.substr(1, comma - 1)), trim(c.substr(comma + 1, close - comma - 1)));
  }
  const make::Words w = make::split_words(c);
  if (w.words.size() < 2) return std::nullopt;
  return std::make_pair(trim(w.words[0]), trim(w.words[1]));
}

bool is_nvidia_platform_word(std::string_view w) {
  return w == "CUDA" || w == "cuda" || w == "nvcc" || w == "NVCC" || w == "nvidia" || w == "NVIDIA";
}
bool is_amd_platform_value(std::string_view v) {
  return v == "HIP" || v == "hip" || v == "amd" || v == "AMD" || v == "hcc" || v == "HCC" ||
         v.find("hipconfig") != std::string_view::npos;
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

}  // namespace

Result migrate_makefile_to_cuda(const std::string& rel, std::string_view text, const Options& o) {
  Result r;
  const Restored restored = restore_recorded(rel, text, "flags", r);
  const std::string src = restored.text;
  const std::vector<make::LogicalLine> lines = make::logical_lines(src);
  auto is_restored = [&](const make::LogicalLine& l) {
    for (const auto& [b, e] : restored.restored)
      if (l.begin >= b && l.begin < e) return true;
    return false;
  };

  // ---- what the file says: assignments, rules, recipes, conditionals
  struct LineInfo {
    std::optional<Assignment> assign;
    make::Words words;            // of the code part (recipes, rules) or of the value (assignments)
    std::size_t rule = SIZE_MAX;  // for a recipe line: the line index of its rule
  };
  std::vector<LineInfo> info(lines.size());
  std::map<std::string, std::vector<std::size_t>> assigns;  // name -> line indices
  std::map<std::string, std::string> selector;              // platform variable -> its NVIDIA value
  std::size_t current_rule = SIZE_MAX;
  // A tab-led line is a recipe only after a rule; before the first rule (or after an assignment)
  // make reads it as an ordinary line (`\tCXXFLAGS += -x cu` inside an ifeq block).
  std::vector<bool> recipe(lines.size(), false);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const make::LogicalLine& l = lines[i];
    if (l.verbatim) continue;
    std::string_view code = l.text.substr(0, l.code_end);
    if (l.recipe && current_rule == SIZE_MAX) {
      code = l.text;  // not a recipe: '#' starts a comment again
      const std::size_t hash = code.find('#');
      if (hash != std::string_view::npos) code = code.substr(0, hash);
    }
    recipe[i] = l.recipe && current_rule != SIZE_MAX;
    if (recipe[i]) {
      info[i].words = make::split_words(code);
      info[i].rule = current_rule;
      continue;
    }
    if (auto ops = conditional_operands(code)) {
      for (auto [a, b] : {*ops, std::make_pair(ops->second, ops->first)}) {
        const std::string v = whole_ref(a);
        if (!v.empty() && is_nvidia_platform_word(b) && !selector.contains(v)) selector[v] = b;
      }
    }
    if (is_directive(code)) continue;
    if ((info[i].assign = parse_assignment(code))) {
      info[i].words = make::split_words(code.substr(info[i].assign->value_begin));
      assigns[info[i].assign->name].push_back(i);
      current_rule = SIZE_MAX;
      continue;
    }
    if (code.find(':') != std::string_view::npos) {
      info[i].words = make::split_words(code);
      current_rule = i;
    }
  }
  // Variables whose value is the compiler (HIPCC = /opt/rocm/bin/hipcc, CXX = $(HIPCC), NVCC = nvcc).
  std::set<std::string> compilers;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, at] : assigns) {
      if (compilers.contains(name)) continue;
      for (std::size_t i : at) {
        const auto& ws = info[i].words.words;
        if (!ws.empty() && (is_hipcc_word(ws[0]) || is_nvcc_word(ws[0]) || compilers.contains(whole_ref(ws[0])))) {
          compilers.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  auto is_compiler_word = [&](const std::string& w) {
    return is_hipcc_word(w) || is_nvcc_word(w) || compilers.contains(whole_ref(w));
  };
  // Recipe words that belong to an nvcc command: from the compiler word to the next shell separator.
  std::vector<std::vector<bool>> in_nvcc(lines.size());
  std::set<std::string> nvcc_refs, host_refs;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!recipe[i]) continue;
    const auto& ws = info[i].words.words;
    in_nvcc[i].assign(ws.size(), false);
    bool on = false;
    for (std::size_t k = 0; k < ws.size(); ++k) {
      if (ws[k] == "&&" || ws[k] == "||" || ws[k] == ";" || ws[k] == "|") on = false;
      else if (is_compiler_word(ws[k])) on = true;
      in_nvcc[i][k] = on;
      for (const std::string& v : var_refs(ws[k])) (on ? nvcc_refs : host_refs).insert(v);
      if (!ws[k].empty() && ws[k].back() == ';') on = false;
    }
  }
  // make's built-in rules compile with $(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c.
  if (compilers.contains("CXX")) nvcc_refs.insert({"CXXFLAGS", "CPPFLAGS", "TARGET_ARCH", "LDFLAGS", "LDLIBS"});
  if (compilers.contains("CC")) nvcc_refs.insert({"CFLAGS", "CPPFLAGS", "TARGET_ARCH", "LDFLAGS", "LDLIBS"});
  auto close_over = [&](std::set<std::string>& s) {
    for (bool grew = true; grew;) {
      grew = false;
      for (const std::string& v : std::vector<std::string>(s.begin(), s.end()))
        if (auto it = assigns.find(v); it != assigns.end())
          for (std::size_t i : it->second)
            for (const std::string& w : info[i].words.words)
              for (const std::string& ref : var_refs(w)) grew = s.insert(ref).second || grew;
    }
  };
  close_over(nvcc_refs);
  close_over(host_refs);
  // Variables that already carry -x cu (or -x hip, mapped to it).
  std::set<std::string> has_x;
  for (const auto& [name, at] : assigns)
    for (std::size_t i : at) {
      const auto& ws = info[i].words.words;
      for (std::size_t k = 0; k + 1 < ws.size(); ++k)
        if (ws[k] == "-x" && (ws[k + 1] == "cu" || ws[k + 1] == "hip")) has_x.insert(name);
    }

  // A variable whose value names source files, directly or through whole references
  // (SOURCES = main.cpp, SRC = $(SOURCES), SRCS = $(wildcard *.cpp)); not $(SOURCES:.cpp=.o).
  std::function<bool(const std::string&, int)> var_has_sources = [&](const std::string& name, int depth) {
    if (depth > 8) return false;
    const auto it = assigns.find(name);
    if (it == assigns.end()) return false;
    for (std::size_t a : it->second)
      for (const std::string& v : info[a].words.words) {
        std::string_view x = v;
        if (x.ends_with(')') && x.find('(') == std::string_view::npos) x.remove_suffix(1);  // $(wildcard *.cpp)
        if (is_source_name(x)) return true;
        if (const std::string ref = whole_ref(v); !ref.empty() && var_has_sources(ref, depth + 1)) return true;
      }
    return false;
  };

  // A recipe's nvcc command compiles a source file (hipcc compiled .cpp as HIP; nvcc needs -x cu).
  auto prereq_sources = [&](std::size_t rule, bool first_only) {
    if (rule == SIZE_MAX) return false;
    const auto& ws = info[rule].words.words;
    std::size_t k = 0;
    while (k < ws.size() && ws[k].find(':') == std::string::npos) ++k;
    if (k == ws.size()) return false;
    std::vector<std::string> pre;
    const std::string& colon_word = ws[k];
    const std::size_t c = colon_word.find_last_of(':');
    if (c + 1 < colon_word.size()) pre.push_back(colon_word.substr(c + 1));
    for (++k; k < ws.size() && ws[k] != "|" && ws[k] != ";"; ++k) pre.push_back(ws[k]);
    for (const std::string& p : pre) {
      bool src_p = is_source_name(p);
      if (!src_p)
        if (auto it = assigns.find(whole_ref(p)); it != assigns.end())
          for (std::size_t i : it->second)
            for (const std::string& w : info[i].words.words) src_p = src_p || is_source_name(w);
      if (src_p) return true;
      if (first_only) return false;
    }
    return false;
  };

  // ---- rewrite, line by line
  const std::string arch = cuda_arch(o);
  bool changed = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const make::LogicalLine& l = lines[i];
    if (l.verbatim || is_restored(l) || (!recipe[i] && !info[i].assign && info[i].words.words.empty())) {
      r.output += l.text;
      continue;
    }
    const make::Words& w = info[i].words;
    std::vector<std::string> mapped;
    if (recipe[i]) {
      mapped.assign(w.words.begin(), w.words.end());
      // Map each stretch: nvcc commands with host flags wrapped, the rest without.
      for (std::size_t k = 0; k < w.words.size();) {
        std::size_t e = k;
        while (e < w.words.size() && in_nvcc[i][e] == in_nvcc[i][k]) ++e;
        const std::vector<std::string> part(w.words.begin() + static_cast<long>(k),
                                            w.words.begin() + static_cast<long>(e));
        const auto m = map_hipcc_words(part, o, rel, l.line, r.diagnostics, in_nvcc[i][k]);
        if (in_nvcc[i][k]) {
          bool has_x_here = false, compiles = false, many_sources = false;
          std::vector<std::size_t> source_words;  // in `part`: a source file, $< or $(SOURCES)
          for (std::size_t j = 0; j < part.size(); ++j) {
            has_x_here = has_x_here || part[j] == "-x" || part[j] == "-xhip";
            for (const std::string& v : var_refs(part[j])) {
              std::set<std::string> c{v};
              close_over(c);
              for (const std::string& x : c) has_x_here = has_x_here || has_x.contains(x);
            }
            const bool one_source = (is_source_name(part[j]) && (j == 0 || part[j - 1] != "-o")) ||
                                    (!whole_ref(part[j]).empty() && (j == 0 || part[j - 1] != "-o") &&
                                     var_has_sources(whole_ref(part[j]), 0)) ||
                                    (part[j] == "$<" && prereq_sources(info[i].rule, true));
            if (one_source) source_words.push_back(j);
            compiles = compiles || one_source ||
                       (part[j].find("$<") != std::string::npos && prereq_sources(info[i].rule, true)) ||
                       ((part[j].find("$^") != std::string::npos || part[j].find("$+") != std::string::npos) &&
                        prereq_sources(info[i].rule, false));
            many_sources =
                many_sources || part[j].find("$^") != std::string::npos || part[j].find("$+") != std::string::npos;
          }
          // -x applies to every input of an nvcc command: a .a/.o/.so input beside the source breaks it.
          auto is_binary_input = [](std::string_view x) {
            return x.ends_with(".a") || x.ends_with(".o") || x.ends_with(".so") || x.ends_with(".obj");
          };
          bool binary_inputs = false;
          std::vector<bool> binary(part.size(), false);
          for (std::size_t j = 0; j < part.size(); ++j) {
            if (j > 0 && part[j - 1] == "-o") continue;
            binary[j] = is_binary_input(part[j]) && part[j][0] != '-';
            const std::string ref = whole_ref(part[j]);
            if (!ref.empty() && (j == 0 || part[j - 1] != "-o"))
              if (auto it = assigns.find(ref); it != assigns.end())
                for (std::size_t a : it->second)
                  for (const std::string& v : info[a].words.words) binary[j] = binary[j] || is_binary_input(v);
            binary_inputs = binary_inputs || binary[j];
          }
          std::copy(m.begin(), m.end(), mapped.begin() + static_cast<long>(k));
          // One source beside .a/.o inputs: compile it on its own (-x cu -c), then link its object
          // with the rest, in the same recipe line. The object is named after the target ($@).
          const bool split = compiles && !has_x_here && binary_inputs && !many_sources && source_words.size() == 1 &&
                             !mapped[k].empty() && (source_words[0] == 0 || !binary[source_words[0]]);
          if (split) {
            std::string compile = mapped[k] + " -x cu -c";
            for (std::size_t j = 1; j < part.size(); ++j) {
              if (binary[j] || m[j].empty()) continue;
              if (part[j] == "-o" || (part[j - 1] == "-o")) continue;
              if (part[j] == "-c") continue;
              compile += " " + m[j];
            }
            std::string link_cc = mapped[k];
            while (!link_cc.empty() && (link_cc.front() == '@' || link_cc.front() == '-' || link_cc.front() == '+'))
              link_cc.erase(0, 1);
            mapped[k] = compile + " -o $@.ferry.o && " + link_cc;
            mapped[k + source_words[0]] = "$@.ferry.o";
            r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                                         "nvcc command split in two: '" + part[source_words[0]] +
                                             "' is compiled on its own with -x cu (to $@.ferry.o), then linked with "
                                             "the .a/.o inputs (-x applies to every input of a command)"));
          } else if (compiles && !has_x_here && binary_inputs) {
            r.diagnostics.push_back(
                diag(Diag::BuildMixedInputs, Severity::Warning, rel, l.line,
                     "this nvcc command compiles a .cpp/.hip source and takes .a/.o inputs: nvcc "
                     "needs -x cu for the source, and -x applies to every input",
                     "compile the source in its own command (nvcc -x cu -c), then link the objects"));
          } else if (compiles && !has_x_here && !mapped[k].empty()) {
            mapped[k] += " -x cu";
            r.diagnostics.push_back(
                diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                     "'-x cu' added: hipcc compiles .cpp/.hip sources as HIP, nvcc only .cu as CUDA"));
          }
        } else {
          std::copy(m.begin(), m.end(), mapped.begin() + static_cast<long>(k));
        }
        k = e;
      }
    } else if (info[i].assign) {
      const std::string& name = info[i].assign->name;
      const bool host = nvcc_refs.contains(name) && !host_refs.contains(name);
      mapped = map_hipcc_words(w.words, o, rel, l.line, r.diagnostics, host);
      // A platform selector that already has an NVIDIA branch: select it.
      if (auto it = selector.find(name);
          it != selector.end() && w.words.size() == 1 && is_amd_platform_value(w.words[0])) {
        r.diagnostics.push_back(
            diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                 name + " = " + w.words[0] + " -> " + it->second + " (the file's own NVIDIA branch is selected)"));
        mapped[0] = it->second;
      }
    } else {
      mapped = map_hipcc_words(w.words, o, rel, l.line, r.diagnostics, false);
    }
    std::size_t code_end = l.code_end;
    if (l.recipe && !recipe[i]) code_end = std::min(l.text.find('#'), l.text.size());
    const std::string_view code = l.text.substr(0, code_end);
    std::string line_out = info[i].assign ? std::string(code.substr(0, info[i].assign->value_begin)) : std::string();
    line_out += make::join_words(w, mapped);
    line_out += l.text.substr(code_end);
    // $(CXX) is nvcc now: make's built-in .cpp rule must compile as CUDA too.
    if (info[i].assign && info[i].assign->name == "CXX" && compilers.contains("CXX") && assigns["CXX"].back() == i &&
        !assigns.contains("COMPILE.cc")) {
      if (!line_out.ends_with('\n')) line_out += '\n';
      line_out +=
          "# ferry: nvcc compiles .cpp files as host C++ (hipcc compiled them as HIP): make's built-in rule uses -x cu\n"
          "COMPILE.cc = $(CXX) -x cu $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c\n";
      r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                                   "CXX is nvcc: make's built-in .cpp rule gets -x cu (COMPILE.cc)"));
    }
    changed = changed || line_out != l.text;
    r.output += line_out;
  }
  if (changed || !restored.restored.empty())
    r.diagnostics.push_back(
        diag(Diag::BuildMovedToolchain, Severity::Note, rel, 0,
             "Makefile moved to nvcc and the CUDA libraries (" + arch + ", CUDA " + version(o).str() + ")",
             "build it with make; nvcc must be on PATH (e.g. /usr/local/cuda/bin)"));
  return r;
}

// ------------------------------------------------------------------------------------------
// CMake
// ------------------------------------------------------------------------------------------
namespace {

using CEdit = TextEdit;

std::string unquote(const CMakeArg& a) { return a.quoted ? a.text.substr(1, a.text.size() - 2) : a.text; }
bool arg_is(const CMakeArg& a, std::string_view v) { return !a.bracket && unquote(a) == v; }
// ${NAME} exactly.
std::string cmake_ref(std::string_view s) {
  if (s.size() > 3 && starts_with(s, "${") && s.back() == '}') return std::string(s.substr(2, s.size() - 3));
  return {};
}

// CMAKE_HIP_* -> CMAKE_CUDA_*, HIP_ARCHITECTURES -> CUDA_ARCHITECTURES, inside one argument.
std::string rename_hip_vars(std::string t) {
  static const std::pair<std::string_view, std::string_view> k[] = {{"CMAKE_HIP_", "CMAKE_CUDA_"},
                                                                    {"HIP_ARCHITECTURES", "CUDA_ARCHITECTURES"}};
  for (const auto& [from, to] : k)
    for (std::size_t p = 0; (p = t.find(from, p)) != std::string::npos;) {
      const bool left = p == 0 || !(std::isalnum(static_cast<unsigned char>(t[p - 1])) || t[p - 1] == '_');
      if (left && !(from == "HIP_ARCHITECTURES" && p >= 5 && t.compare(p - 5, 5, "CMAKE") == 0)) {
        t.replace(p, from.size(), to);
        p += to.size();
      } else {
        p += from.size();
      }
    }
  return t;
}

}  // namespace

Result migrate_cmake_to_cuda(const std::string& rel, std::string_view text, const Options& o) {
  Result r;
  const Restored restored = restore_recorded(rel, text, "settings", r);
  const std::string src = restored.text;
  std::vector<CMakeCommand> cmds;
  try {
    cmds = parse_cmake(src);
  } catch (const std::exception& e) {
    r.output = src;
    r.diagnostics.push_back(diag(Diag::BuildLeftForReview, Severity::Warning, rel, 0,
                                 std::string("cannot tokenize this CMake file (") + e.what() + "): copied unchanged",
                                 "fix the syntax, or migrate the file by hand"));
    return r;
  }
  auto is_restored = [&](const CMakeCommand& c) {
    for (const auto& [b, e] : restored.restored)
      if (c.begin >= b && c.begin < e) return true;
    return false;
  };
  const std::string arch = cuda_arch_number(o);

  // ---- what the file uses
  std::map<std::string, std::string> selector;  // set(V "HIP") used as a language -> "CUDA"
  std::set<std::string> language_vars;
  bool mentions_cuda_arch = false;
  for (const auto& c : cmds) {
    for (const auto& a : c.args) {
      const std::string t = unquote(a);
      // CUDA's own, or an AMD list this migration turns into CMAKE_CUDA_ARCHITECTURES
      mentions_cuda_arch = mentions_cuda_arch || t.find("CUDA_ARCHITECTURES") != std::string::npos ||
                           (c.name == "set" && &a == &c.args[0] &&
                            (t == "CMAKE_HIP_ARCHITECTURES" || t == "GPU_TARGETS" || t == "AMDGPU_TARGETS"));
    }
    if (c.name == "enable_language" || c.name == "project")
      for (const auto& a : c.args) {
        if (const std::string v = cmake_ref(unquote(a)); !v.empty()) language_vars.insert(v);
      }
    for (std::size_t k = 0; k + 1 < c.args.size(); ++k)
      if (arg_is(c.args[k], "LANGUAGE"))
        if (const std::string v = cmake_ref(unquote(c.args[k + 1])); !v.empty()) language_vars.insert(v);
    if (c.name == "if" || c.name == "elseif")
      for (std::size_t k = 0; k + 2 < c.args.size(); ++k)
        if (arg_is(c.args[k + 1], "STREQUAL") && arg_is(c.args[k + 2], "CUDA")) {
          std::string v = unquote(c.args[k]);
          if (const std::string ref = cmake_ref(v); !ref.empty()) v = ref;
          language_vars.insert(v);
        }
  }
  for (const auto& c : cmds)
    if (c.name == "set" && c.args.size() >= 2 && language_vars.contains(unquote(c.args[0])) &&
        (arg_is(c.args[1], "HIP")))
      selector[unquote(c.args[0])] = "CUDA";

  std::vector<CEdit> edits;
  auto note = [&](std::uint32_t line, std::string msg) {
    r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, line, std::move(msg)));
  };
  auto line_start = [&](std::size_t at) {
    while (at > 0 && src[at - 1] != '\n') --at;
    return at;
  };
  const std::string arch_block =
      "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES " + arch +
      ")  # ferry: the NVIDIA architecture (--arch; -DCMAKE_CUDA_ARCHITECTURES=... to change)\n"
      "endif()\n";
  // toolkit_found: find_package(CUDAToolkit) already ran at the top level (not inside an if(),
  // e.g. a Windows-only install branch) before the current command.
  bool arch_placed = mentions_cuda_arch, toolkit_found = false, changed = false;
  std::vector<int> depth(cmds.size(), 0);
  for (std::size_t i = 0, d = 0; i < cmds.size(); ++i) {
    const std::string& n = cmds[i].name;
    if (n == "endif" || n == "endforeach" || n == "endwhile" || n == "endfunction" || n == "endmacro")
      d = d ? d - 1 : 0;
    depth[i] = static_cast<int>(d);
    if (n == "if" || n == "foreach" || n == "while" || n == "function" || n == "macro") ++d;
  }
  auto depth_of = [&](const CMakeCommand& c) { return depth[static_cast<std::size_t>(&c - cmds.data())]; };
  std::set<std::string> hip_sources_with_language;  // set_source_files_properties(x LANGUAGE ...) already there
  for (const auto& c : cmds)
    if (c.name == "set_source_files_properties") {
      bool lang = false;
      for (const auto& a : c.args) lang = lang || arg_is(a, "LANGUAGE");
      if (lang)
        for (const auto& a : c.args) {
          if (arg_is(a, "PROPERTIES")) break;
          hip_sources_with_language.insert(unquote(a));
        }
    }
  // Targets that link HIP's device library (their .cpp sources were compiled as HIP by hipcc).
  std::set<std::string> hip_device_targets;
  bool hipcc_as_cxx = false;
  for (const auto& c : cmds) {
    if (c.name == "target_link_libraries" && c.args.size() > 1)
      for (const auto& a : c.args)
        if (arg_is(a, "hip::device")) hip_device_targets.insert(unquote(c.args[0]));
    if (c.name == "set" && c.args.size() >= 2 && arg_is(c.args[0], "CMAKE_CXX_COMPILER") &&
        is_hipcc_value(unquote(c.args[1])))
      hipcc_as_cxx = true;
  }
  std::set<std::string> object_libraries;  // add_library(NAME OBJECT ...)
  for (const auto& c : cmds)
    if (c.name == "add_library" && c.args.size() > 1 && arg_is(c.args[1], "OBJECT"))
      object_libraries.insert(unquote(c.args[0]));
  // set(NAME values...): what ${NAME} among a target's sources stands for.
  std::map<std::string, std::vector<std::string>> set_values;
  for (const auto& c : cmds)
    if (c.name == "set" && c.args.size() >= 2)
      for (std::size_t k = 1; k < c.args.size(); ++k) set_values[unquote(c.args[0])].push_back(unquote(c.args[k]));

  // A target whose .cpp sources hipcc compiled as HIP (they are CUDA sources now).
  auto hip_cpp_target = [&](const CMakeCommand& c) {
    return !c.args.empty() && (hipcc_as_cxx || hip_device_targets.contains(unquote(c.args[0])));
  };
  for (const auto& c : cmds) {
    if (c.name == "find_package" && !c.args.empty() && arg_is(c.args[0], "CUDAToolkit") && depth_of(c) == 0)
      toolkit_found = true;
    if (is_restored(c)) continue;
    // project(... HIP) / enable_language(HIP) -> CUDA, with the architecture set before.
    if (c.name == "project" || c.name == "enable_language") {
      bool enables = false;
      for (const auto& a : c.args) {
        if (arg_is(a, "HIP")) {
          edits.push_back({a.begin, a.end, "CUDA"});
          note(c.line, c.name + ": language HIP -> CUDA");
          enables = true;
        }
        if (const std::string v = cmake_ref(unquote(a)); !v.empty() && selector.contains(v)) enables = true;
        if (arg_is(a, "CUDA")) enables = true;
      }
      if (enables && !arch_placed) {
        edits.push_back({line_start(c.begin), line_start(c.begin), arch_block});
        arch_placed = true;
      }
      continue;
    }
    if (c.name == "set" && c.args.size() >= 2 && selector.contains(unquote(c.args[0])) && arg_is(c.args[1], "HIP")) {
      const CMakeArg& a = c.args[1];
      edits.push_back({a.begin, a.end, a.quoted ? "\"CUDA\"" : "CUDA"});
      note(c.line, unquote(c.args[0]) + " = HIP -> CUDA (the file's own CUDA branch is selected)");
      continue;
    }
    if (c.name == "set" && c.args.size() >= 2 && arg_is(c.args[0], "CMAKE_CXX_LINKER") &&
        is_hipcc_value(unquote(c.args[1]))) {
      edits.push_back(
          {c.begin, c.end, "# ferry: set(CMAKE_CXX_LINKER hipcc) removed: CMake links CUDA targets with nvcc"});
      note(c.line, "hipcc as the linker removed");
      continue;
    }
    if (c.name == "set" && !c.args.empty() && arg_is(c.args[0], "CMAKE_CXX_COMPILER") && c.args.size() >= 2 &&
        is_hipcc_value(unquote(c.args[1]))) {
      // (the architecture first: an insertion at the same offset after the replacement is lost)
      if (!arch_placed) edits.push_back({line_start(c.begin), line_start(c.begin), arch_block}), arch_placed = true;
      edits.push_back({c.begin, c.end,
                       "# ferry: set(CMAKE_CXX_COMPILER hipcc) removed: nvcc compiles the CUDA sources\n"
                       "enable_language(CUDA)"});
      note(c.line, "hipcc as the C++ compiler -> the CUDA language (nvcc)");
      continue;
    }
    if (c.name == "set" && !c.args.empty() &&
        (arg_is(c.args[0], "GPU_TARGETS") || arg_is(c.args[0], "AMDGPU_TARGETS") ||
         arg_is(c.args[0], "CMAKE_HIP_ARCHITECTURES"))) {
      edits.push_back({c.begin, c.end,
                       arg_is(c.args[0], "CMAKE_HIP_ARCHITECTURES") || !arch_placed
                           ? "set(CMAKE_CUDA_ARCHITECTURES " + arch + ")"
                           : "# ferry: " + unquote(c.args[0]) + " (AMD architectures) removed"});
      arch_placed = true;
      note(c.line, unquote(c.args[0]) + " -> CMAKE_CUDA_ARCHITECTURES " + arch);
      continue;
    }
    if (c.name == "find_package" && !c.args.empty() && is_rocm_package(unquote(c.args[0]))) {
      if (!toolkit_found) {
        edits.push_back({c.begin, c.end, "find_package(CUDAToolkit REQUIRED)"});
        toolkit_found = depth_of(c) == 0;
      } else {
        edits.push_back({c.begin, c.end, "# ferry: find_package(" + unquote(c.args[0]) + ") -> CUDAToolkit"});
      }
      note(c.line, "find_package(" + unquote(c.args[0]) + ") -> find_package(CUDAToolkit)");
      continue;
    }
    // if(NOT "${GPU_RUNTIME}" STREQUAL "HIP") message(FATAL_ERROR ...): the file's guard that the
    // example needs HIP. Its sources are CUDA now and GPU_RUNTIME selects CUDA: the guard asks for CUDA.
    if (c.name == "if" && c.args.size() == 4 && arg_is(c.args[0], "NOT") && arg_is(c.args[2], "STREQUAL") &&
        arg_is(c.args[3], "HIP")) {
      std::string v = unquote(c.args[1]);
      if (const std::string ref = cmake_ref(v); !ref.empty()) v = ref;
      bool fatal = false;
      const std::size_t at = static_cast<std::size_t>(&c - cmds.data());
      for (std::size_t j = at + 1; j < cmds.size() && depth[j] > depth[at]; ++j)
        fatal = fatal || (cmds[j].name == "message" && !cmds[j].args.empty() && arg_is(cmds[j].args[0], "FATAL_ERROR"));
      if (selector.contains(v) && fatal) {
        const CMakeArg& a = c.args[3];
        edits.push_back({a.begin, a.end, a.quoted ? "\"CUDA\"" : "CUDA"});
        note(c.line, "the guard that " + v + " is HIP now asks for CUDA (the sources are CUDA now)");
        continue;
      }
    }
    // add_custom_command(... COMMAND ${PERL_EXECUTABLE} .../hipify-perl in.cu -o out.hip): the CUDA
    // source is the source now; it is copied.
    if (c.name == "add_custom_command") {
      for (std::size_t k = 0; k < c.args.size(); ++k) {
        const std::string t = unquote(c.args[k]);
        if (!(t == "hipify-perl" || t.ends_with("/hipify-perl"))) continue;
        std::size_t first = k;
        if (k > 0 && (arg_is(c.args[k - 1], "${PERL_EXECUTABLE}") || arg_is(c.args[k - 1], "perl"))) first = k - 1;
        edits.push_back({c.args[first].begin, c.args[k].end, "${CMAKE_COMMAND} -E copy"});
        for (std::size_t j = k + 1; j < c.args.size(); ++j) {
          const std::string u = unquote(c.args[j]);
          if (u == "COMMAND" || u == "DEPENDS" || u == "VERBATIM" || u == "OUTPUT" || u == "WORKING_DIRECTORY" ||
              u == "COMMENT" || u == "BYPRODUCTS" || u == "MAIN_DEPENDENCY")
            break;
          if (starts_with(u, "-")) {  // -o and hipify's own options
            std::size_t b = c.args[j].begin;
            while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) --b;
            edits.push_back({b, c.args[j].end, ""});
          }
        }
        note(c.line, "hipify-perl step -> a copy: the CUDA source is the source now");
        break;
      }
    }
    // target_compile_options(mod PRIVATE --cuda-device-only) on an OBJECT library: a code object
    // loaded at run time (hipModuleLoad); CMake's CUDA makes a fatbin of it (CMake >= 3.27).
    if (c.name == "target_compile_options" && c.args.size() > 1 && object_libraries.contains(unquote(c.args[0])))
      for (const auto& a : c.args)
        if (arg_is(a, "--cuda-device-only") || arg_is(a, "--offload-device-only")) {
          edits.push_back({c.end, c.end,
                           "\nset_target_properties(" + c.args[0].text +
                               " PROPERTIES CUDA_FATBIN_COMPILATION ON)  # ferry: device code only, "
                               "loaded at run time (CMake >= 3.27)"});
          note(c.line, "device-only object library -> CUDA_FATBIN_COMPILATION");
          break;
        }
    // .hip sources: CMake's CUDA language does not know the extension; hipcc-compiled .cpp neither.
    if ((c.name == "add_executable" || c.name == "add_library" || c.name == "target_sources") && c.args.size() > 1) {
      std::vector<std::string> mark;
      bool imported = false;
      const bool hip_cpp = hipcc_as_cxx || hip_device_targets.contains(unquote(c.args[0]));
      for (std::size_t k = 1; k < c.args.size(); ++k) {
        const std::string t = unquote(c.args[k]);
        imported = imported || t == "IMPORTED" || t == "ALIAS" || t == "INTERFACE";
        auto is_hip_source = [&](std::string_view x) {
          return x.ends_with(".hip") || (hip_cpp && (x.ends_with(".cpp") || x.ends_with(".cc")));
        };
        bool source = is_hip_source(t);
        // ${SOURCES}: set(SOURCES a.cpp b.cpp) earlier (set_source_files_properties expands the list)
        if (const std::string v = cmake_ref(t); !v.empty() && set_values.contains(v))
          for (const std::string& x : set_values[v]) source = source || is_hip_source(x);
        if (source && !hip_sources_with_language.contains(t)) mark.push_back(c.args[k].text);
      }
      if (!mark.empty() && !imported) {
        std::string ins = "\nset_source_files_properties(";
        for (std::size_t k = 0; k < mark.size(); ++k) ins += (k ? " " : "") + mark[k];
        ins += " PROPERTIES LANGUAGE CUDA)";
        edits.push_back({c.end, c.end, ins});
        note(c.line, std::to_string(mark.size()) + " HIP source(s) compiled as CUDA (LANGUAGE CUDA)");
      }
    }
    // Arguments: LANGUAGE HIP, CMAKE_HIP_* names, ROCm targets and libraries, hipcc flags.
    const bool links = c.name == "target_link_libraries" || c.name == "link_libraries";
    const bool flags = c.name == "target_compile_options" || c.name == "add_compile_options" ||
                       c.name == "target_link_options" || c.name == "add_link_options" ||
                       (c.name == "set" && !c.args.empty() &&
                        (arg_is(c.args[0], "CMAKE_HIP_FLAGS") || arg_is(c.args[0], "CMAKE_CXX_FLAGS") ||
                         arg_is(c.args[0], "CMAKE_CUDA_FLAGS")));
    std::size_t kept_items = 0, dropped_items = 0, dropped_flags = 0, kept_flags = 0;
    std::vector<CEdit> cmd_edits;
    for (std::size_t k = 0; k < c.args.size(); ++k) {
      const CMakeArg& a = c.args[k];
      if (a.bracket) continue;
      const std::string t = unquote(a);
      std::string repl = a.text;
      if (k > 0 && arg_is(c.args[k - 1], "LANGUAGE") && t == "HIP") {
        repl = a.quoted ? "\"CUDA\"" : "CUDA";
      } else if (flags && k > 0 && hip_cpp_target(c) && is_openmp_flags_ref(t)) {
        // CMake's OpenMP flags are the host compiler's (-fopenmp); the target's sources are CUDA
        // now, compiled by nvcc. (CMake links CUDA executables with the host compiler: the flags
        // in target_link_libraries stay.)
        repl = "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=" + t + ">";
        note(c.line, "'" + t + "' passed to the host compiler (-Xcompiler): the target's sources are CUDA now");
        ++kept_flags;
      } else if (links && k > 0 && !(t == "PUBLIC" || t == "PRIVATE" || t == "INTERFACE")) {
        const RocLib* l = find_roc_target(t);
        if (!l) l = find_roc_lib(starts_with(t, "-l") ? t.substr(2) : t);
        if (l) {
          const std::string to = starts_with(t, "-l") ? (*l->cuda ? std::string("-l") + l->cuda : "") : l->cuda_target;
          repl = to;
          if (to.empty()) ++dropped_items;
          else ++kept_items;
          note(c.line, "'" + t + "' -> " + (to.empty() ? "nothing (header-only in CUDA)" : "'" + to + "'"));
        } else {
          ++kept_items;
        }
      } else if (flags && k > 0 && !starts_with(t, "$<") && !starts_with(t, "${")) {
        const std::vector<std::string> words = make::split_words(t).words;
        std::vector<std::string> m = map_hipcc_words(words, o, rel, c.line, r.diagnostics, false);
        std::string joined;
        for (const std::string& x : m)
          if (!x.empty()) joined += (joined.empty() ? "" : " ") + x;
        if (joined != t) repl = a.quoted ? "\"" + joined + "\"" : joined;
        if (!(t == "PUBLIC" || t == "PRIVATE" || t == "INTERFACE" || t == "BEFORE"))
          ++(joined.empty() ? dropped_flags : kept_flags);
      }
      if (c.name == "install" && find_roc_target(t)) repl = find_roc_target(t)->cuda_target;
      repl = rename_hip_vars(repl);
      if (repl != a.text) {
        std::size_t b = a.begin;
        if (repl.empty())
          while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) --b;
        cmd_edits.push_back({b, a.end, repl});
      }
    }
    if (flags && c.name != "set" && kept_flags == 0 && dropped_flags > 0) {
      edits.push_back(
          {c.begin, c.end,
           "# ferry: " + c.name + "(" + unquote(c.args[0]) + " ...) held only hipcc flags nvcc has no use for"});
    } else if (links && kept_items == 0 && dropped_items > 0) {
      edits.push_back({c.begin, c.end,
                       "# ferry: target_link_libraries(" + unquote(c.args[0]) +
                           " ...) of header-only ROCm libraries removed (CUB/Thrust come with CUDA)"});
    } else {
      edits.insert(edits.end(), cmd_edits.begin(), cmd_edits.end());
    }
  }
  changed = !edits.empty();
  r.output = changed ? apply_text_edits(src, std::move(edits)) : src;
  if (changed || !restored.restored.empty())
    r.diagnostics.push_back(diag(Diag::BuildMovedToolchain, Severity::Note, rel, 0,
                                 "CMake project moved to the CUDA toolchain (CUDA language, CUDAToolkit, "
                                 "CMAKE_CUDA_ARCHITECTURES=" +
                                     arch + ")",
                                 "configure with cmake -S . -B build; nvcc must be found (CUDACXX or PATH)"));
  return r;
}

}  // namespace ferry::buildsys
