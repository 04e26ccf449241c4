#include "wave64/build.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/split.h"
#include "lex/lexer.h"
#include "project/install_layout.h"
#include "project/project.h"
#include "verify/openmp.h"
#include "wave64/runtime_config.h"
#include "wave64/transform.h"

extern char** environ;

namespace ferry::wave64 {
namespace fs = std::filesystem;

const char* api_name(Api a) {
  switch (a) {
    case Api::Hip: return "hip";
    case Api::Cuda: return "cuda";
    case Api::Auto: break;
  }
  return "auto";
}

RuntimeLocation locate_runtime() {
  RuntimeLocation r;
  if (const char* root = std::getenv("FERRY_WAVE64_ROOT"); root && *root) {
    const fs::path p(root);
    r.include = p / "include";
    r.hip = p / "hip";
    r.cuda = p / "cuda";
    r.library = p / "lib" / "libferry_wave64.a";
  } else if (const fs::path inst = project::installed_path("lib/ferry/wave64"); !inst.empty()) {
    // An installed ferry: PREFIX/bin/ferry and PREFIX/lib/ferry/wave64 (project/install_layout.h).
    r.include = inst / "include";
    r.hip = inst / "hip";
    r.cuda = inst / "cuda";
    r.library = inst / "lib" / "libferry_wave64.a";
  } else if (project::build_tree_allowed()) {
    const fs::path src(kRuntimeSourceDir);
    r.include = src / "include";
    r.hip = src / "hip";
    r.cuda = src / "cuda";
    r.library = kRuntimeLibrary;
  } else {
    throw std::runtime_error("the wave64 runtime is not installed beside this ferry (" +
                             (project::executable_dir().parent_path() / "lib/ferry/wave64").string() +
                             ") and FERRY_IGNORE_BUILD_TREE=1 forbids the build tree's copy");
  }
  // The system's boost.context archive where it was found at configure time, else the linker's.
  std::error_code ec;
  r.link = {fs::is_regular_file(kBoostContextLibrary, ec) ? std::string(kBoostContextLibrary) : "-lboost_context",
            "-pthread", "-lm"};
  if (!fs::is_regular_file(r.include / "wave64" / "core.h"))
    throw std::runtime_error("the wave64 runtime headers are not at " + r.include.string() +
                             " (set FERRY_WAVE64_ROOT to the folder that holds include/, hip/, cuda/, lib/)");
  if (!fs::is_regular_file(r.library))
    throw std::runtime_error("the wave64 runtime library " + r.library.string() +
                             " is not built (build the CMake target ferry_wave64, or set FERRY_WAVE64_ROOT)");
  return r;
}

namespace {

bool is_source_name(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".cu" || e == ".hip" || e == ".cpp" || e == ".cc" || e == ".cxx" || e == ".c++" || e == ".c";
}

struct Include {
  std::string name;
  bool quoted;
};

std::vector<Include> includes_of(std::string_view text) {
  std::vector<Include> out;
  for (const lex::Token& t : lex::tokenize(text)) {
    if (t.kind != lex::Kind::HeaderName) continue;
    const std::string_view s = t.text(text);
    if (s.size() < 2) continue;
    out.push_back({std::string(s.substr(1, s.size() - 2)), s.front() == '"'});
  }
  return out;
}

fs::path normal(const fs::path& p) { return fs::weakly_canonical(fs::absolute(p)); }

std::optional<fs::path> resolve(const Include& inc, const fs::path& from_dir, const std::vector<fs::path>& dirs) {
  std::error_code ec;
  if (inc.quoted) {
    const fs::path c = from_dir / inc.name;
    if (fs::is_regular_file(c, ec)) return normal(c);
  }
  for (const fs::path& d : dirs) {
    const fs::path c = d / inc.name;
    if (fs::is_regular_file(c, ec)) return normal(c);
  }
  return std::nullopt;
}

// The mirror of an absolute path under the work folder.
fs::path mirror_of(const fs::path& work, const fs::path& abs) { return work / "src" / abs.relative_path(); }

bool starts_with_any(std::string_view n, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (n.starts_with(p)) return true;
  return false;
}
bool is_cuda_header(std::string_view n) {
  return starts_with_any(n, {"cuda", "cub/", "cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn",
                             "cooperative_groups", "device_launch_parameters.h", "nccl", "nvrtc", "mma.h"});
}
bool is_hip_header(std::string_view n) {
  return starts_with_any(n, {"hip/", "hipblas", "hipcub", "hiprand", "hipfft", "hipsparse", "hipsolver", "rocblas",
                             "rocprim", "rocrand", "rccl", "miopen", "rocwmma"});
}

// The sources and every project header they reach, in a stable order.
std::vector<fs::path> closure(const std::vector<fs::path>& sources, const std::vector<fs::path>& dirs,
                              const RuntimeLocation* rt) {
  std::vector<fs::path> order;
  std::set<fs::path> seen;
  std::vector<fs::path> todo;
  for (const fs::path& s : sources) todo.push_back(normal(s));
  while (!todo.empty()) {
    const fs::path f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    if (rt && (project::is_within(f, rt->include) || project::is_within(f, rt->hip) || project::is_within(f, rt->cuda)))
      continue;
    order.push_back(f);
    std::string text;
    try {
      text = project::read_file(f);
    } catch (const std::exception&) {
      continue;
    }
    for (const Include& inc : includes_of(text))
      if (auto p = resolve(inc, f.parent_path(), dirs)) todo.push_back(*p);
  }
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace

Api detect_api(const std::vector<fs::path>& files) {
  bool hip = false;
  bool cuda = false;
  bool hip_runtime = false;  // hip/hip_runtime.h: a HIP program (a port that kept a CUDA header too)
  bool cu_file = false;
  for (const fs::path& f : files) {
    cu_file |= f.extension() == ".cu" || f.extension() == ".cuh";
    std::string text;
    try {
      text = project::read_file(f);
    } catch (const std::exception&) {
      continue;
    }
    for (const Include& inc : includes_of(text)) {
      if (is_hip_header(inc.name)) hip = true;
      else if (is_cuda_header(inc.name)) cuda = true;
      hip_runtime |= inc.name == "hip/hip_runtime.h" || inc.name == "hip/hip_runtime_api.h";
    }
  }
  // A port often keeps a CUDA header it could not convert (cooperative_groups/memcpy_async.h,
  // FRY1001) beside HIP's runtime header, which no CUDA program includes: HIP. The kept header is
  // then not found, as with HIP itself: a compile error that names it.
  if (hip_runtime) return Api::Hip;
  if (hip && cuda)
    throw std::invalid_argument(
        "the program includes both HIP and CUDA headers; say which API to build with --api hip or --api cuda");
  if (hip) return Api::Hip;
  if (cuda) return Api::Cuda;
  return cu_file ? Api::Cuda : Api::Hip;
}

namespace {

// The library an undefined symbol belongs to, by its (demangled) name; empty when unknown.
std::string library_of(std::string sym) {
  for (const char* prefix : {"typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for "})
    if (sym.rfind(prefix, 0) == 0) sym = sym.substr(std::char_traits<char>::length(prefix));
  static const std::pair<std::regex, const char*> kLibraries[] = {
      {std::regex(R"(^benchmark::)"), "Google Benchmark"},
      {std::regex(R"(^testing::)"), "Google Test"},
      {std::regex(R"(^(cublas|cublasLt))"), "cuBLAS"},
      {std::regex(R"(^curand)"), "cuRAND"},
      {std::regex(R"(^cufft)"), "cuFFT"},
      {std::regex(R"(^cusparse)"), "cuSPARSE"},
      {std::regex(R"(^cusolver)"), "cuSOLVER"},
      {std::regex(R"(^cudnn)"), "cuDNN"},
      {std::regex(R"(^nccl)"), "NCCL"},
      {std::regex(R"(^nvrtc)"), "NVRTC"},
      {std::regex(R"(^(hipblas|rocblas))"), "hipBLAS/rocBLAS"},
      {std::regex(R"(^(hiprand|rocrand))"), "hipRAND/rocRAND"},
      {std::regex(R"(^(hipfft|rocfft))"), "hipFFT/rocFFT"},
      {std::regex(R"(^(hipsparse|rocsparse))"), "hipSPARSE/rocSPARSE"},
      {std::regex(R"(^(hipsolver|rocsolver))"), "hipSOLVER/rocSOLVER"},
      {std::regex(R"(^miopen)"), "MIOpen"},
      {std::regex(R"(^(glut|glew|gl[A-Z]|glu[A-Z]))"), "OpenGL (GL/GLUT/GLEW)"},
      {std::regex(R"(^vk[A-Z])"), "Vulkan"},
      {std::regex(R"(^cu[A-Z])"), "the CUDA driver API"},
      {std::regex(R"(^(cuda|hip)[A-Z]\w*)"), "the runtime API"},
  };
  for (const auto& [re, name] : kLibraries)
    if (std::regex_search(sym, re)) return name;
  return {};
}

// A link that failed on undefined symbols: one FRY9401 naming the libraries they belong to.
void report_unlinked(const std::string& output, const fs::path& first_source, BuildResult& r) {
  static const std::regex kUndefined(R"(undefined reference to [`'‘]([^'’]+)['’])");
  std::vector<std::pair<std::string, std::string>> found;  // library, first symbol
  std::vector<std::string> unknown;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), kUndefined); it != std::sregex_iterator(); ++it) {
    const std::string sym = (*it)[1].str();
    const std::string lib = library_of(sym);
    if (lib.empty()) {
      if (unknown.size() < 3 && std::find(unknown.begin(), unknown.end(), sym) == unknown.end()) unknown.push_back(sym);
      continue;
    }
    const std::string what =
        lib == "the runtime API" ? "the runtime API function " + sym.substr(0, sym.find('(')) : lib;
    if (std::none_of(found.begin(), found.end(), [&](const auto& f) { return f.first == what; }))
      found.emplace_back(what, sym);
  }
  if (found.empty() && unknown.empty()) return;
  std::string msg = "wave64 CPU runtime: the program calls ";
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (i) msg += ", ";
    msg += found[i].first;
    if (found[i].first.rfind("the runtime API", 0) != 0) msg += " (" + found[i].second + ")";
  }
  if (!unknown.empty()) {
    if (!found.empty()) msg += ", and ";
    msg += "functions no source given defines (";
    for (std::size_t i = 0; i < unknown.size(); ++i) msg += (i ? ", " : "") + unknown[i];
    msg += ")";
  }
  msg += ", which the wave64 build does not link";
  Diagnostic d;
  d.code = Diag::Wave64UnlinkedLibrary;
  d.severity = Severity::Error;
  d.file = first_source.string();
  d.message = msg;
  d.hint =
      "link a host library with --link (e.g. --link -lbenchmark) or give the sources that define the functions; "
      "CUDA and HIP libraries and the CUDA driver API are not modelled by the runtime";
  r.diagnostics.push_back(std::move(d));
}

}  // namespace

namespace {

// A path the compiler printed, as the user's file: the mirror under WORK/src is the original.
std::string original_path(const std::string& printed, const fs::path& work) {
  if (work.empty()) return printed;
  const std::string mirror = (work / "src").string();
  if (printed.size() > mirror.size() && printed.starts_with(mirror) && printed[mirror.size()] == '/')
    return printed.substr(mirror.size());
  return printed;
}

// The library a header that is on no include path belongs to, by its name; empty when unknown.
std::string library_of_header(const std::string& h) {
  static const std::pair<std::regex, const char*> kHeaders[] = {
      {std::regex(R"(^(cutlass|cute)/)"), "CUTLASS/CuTe"},
      {std::regex(R"(^vulkan/)"), "Vulkan"},
      {std::regex(R"(^(GL|GLFW|EGL|GLES\d*|glad)/)"), "OpenGL"},
      {std::regex(R"(^mpi\.h$)"), "MPI"},
      {std::regex(R"(^FreeImage\.h$)"), "FreeImage"},
      {std::regex(R"(^nvml\.h$)"), "NVML"},
      {std::regex(R"(^nvToolsExt|^nvtx3/)"), "NVTX"},
      {std::regex(R"(^opencv2?/)"), "OpenCV"},
      {std::regex(R"(^(torch|ATen|c10)/)"), "PyTorch (C++)"},
      {std::regex(R"(^Eigen/)"), "Eigen"},
      {std::regex(R"(^(cub|thrust)/)"), "CUB/Thrust (a copy the checkout lacks)"},
  };
  for (const auto& [re, name] : kHeaders)
    if (std::regex_search(h, re)) return name;
  return {};
}

}  // namespace

std::vector<Diagnostic> diagnose_compiler_output(std::string_view output, const fs::path& work,
                                                 const std::vector<fs::path>& stub_dirs) {
  // gcc: `In file included from A:12,` / `                 from B:3:`; clang: `In file included from A:12:`.
  static const std::regex kIncludedFrom(R"(^In file included from (.+):(\d+)[,:]\s*$)");
  static const std::regex kStub(R"(wave64 CPU runtime: <([^>]+)> \(([^)]+)\) is not supported)");
  static const std::regex kMissing(R"(^(.+?):(\d+):(\d+): fatal error: '?([^':]+?)'?: No such file or directory)");
  static const std::regex kClangMissing(R"(^(.+?):(\d+):(\d+): fatal error: '([^']+)' file not found)");
  static const std::regex kUndeclared(
      R"(^(.+?):(\d+):(\d+): error: (?:use of undeclared identifier )?(?:‘|'|`)((?:cuda|cu|hip|hiprtc|nvrtc)[A-Z]\w*)(?:’|')( was not declared in this scope| does not name a type| has not been declared|$))");
  // The runtime's stand-ins for APIs it does not model (device.h) fail a static assertion
  // naming them; gcc and clang give the user's line as `FILE:LINE:COL:   required from here`.
  static const std::regex kRequiredFrom(R"(^(.+?):(\d+):(\d+):\s+required from here)");
  static const std::regex kStandIn(
      R"(static(?: assertion|_assert) failed.*wave64 CPU runtime: (\w+) is not supported \((.*)\))");
  // HIP has no tile wider than the wavefront (coop.h's assertion); the tile's size is in the
  // instantiation line before it, the program's line is the first `required from` outside the runtime.
  static const std::regex kTileAssert(
      R"(static(?: assertion|_assert) failed.*cooperative groups \(HIP\): a tile size must not be greater than the wavefront size)");
  static const std::regex kTileSize(R"(thread_block_tile<(\d+))");
  static const std::regex kRequiredFromAny(R"(^(.+?):(\d+):(\d+):\s+required from)");
  std::string tile_size, user_file;
  std::uint32_t user_line = 0, user_col = 0;
  std::vector<Diagnostic> out;
  std::set<std::string> seen;  // one diagnostic per library, header or name
  std::string required_file;
  std::uint32_t required_line = 0, required_col = 0;
  std::string includer_file;
  std::uint32_t includer_line = 0;
  std::istringstream in{std::string(output)};
  std::string line;
  auto add = [&](Diag code, const std::string& key, std::string file, std::uint32_t ln, std::uint32_t col,
                 std::string msg, std::string hint) {
    if (!seen.insert(std::to_string(static_cast<int>(code)) + "|" + key).second) return;
    Diagnostic d;
    d.code = code;
    d.severity = Severity::Error;
    d.file = std::move(file);
    d.line = ln;
    d.col = col;
    d.message = std::move(msg);
    d.hint = std::move(hint);
    out.push_back(std::move(d));
  };
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, kIncludedFrom)) {
      includer_file = original_path(m[1].str(), work);
      includer_line = static_cast<std::uint32_t>(std::stoul(m[2].str()));
      continue;
    }
    if (line.find("In instantiation of") != std::string::npos) {
      user_file.clear();
      if (std::regex_search(line, m, kTileSize)) tile_size = m[1].str();
    }
    if (std::regex_search(line, m, kRequiredFromAny) && user_file.empty() &&
        m[1].str().find("wave64/include/") == std::string::npos) {
      user_file = original_path(m[1].str(), work);
      user_line = static_cast<std::uint32_t>(std::stoul(m[2].str()));
      user_col = static_cast<std::uint32_t>(std::stoul(m[3].str()));
    }
    if (std::regex_search(line, m, kTileAssert)) {
      add(Diag::Wave64HipTileWiderThanWave, "tile", user_file.empty() ? required_file : user_file,
          user_file.empty() ? required_line : user_line, user_file.empty() ? required_col : user_col,
          "wave64 CPU runtime (HIP): a cooperative-groups tile of " + (tile_size.empty() ? "N" : tile_size) +
              " threads, wider than the wavefront: HIP's thread_block_tile / tiled_partition take at most the "
              "wavefront size (CUDA has multi-warp tiles)",
          "partition the block into wavefront-sized tiles and combine their results; HIP has no such tile");
      continue;
    }
    if (std::regex_search(line, m, kRequiredFrom)) {
      required_file = original_path(m[1].str(), work);
      required_line = static_cast<std::uint32_t>(std::stoul(m[2].str()));
      required_col = static_cast<std::uint32_t>(std::stoul(m[3].str()));
      continue;
    }
    if (std::regex_search(line, m, kStandIn)) {
      const std::string name = m[1].str();
      add(Diag::Wave64MissingApi, name, required_file, required_line, required_col,
          "wave64 CPU runtime: `" + name + "` is not modelled by the runtime (" + m[2].str() + ")",
          "the runtime declares it only to name it; compare this program on a GPU");
      continue;
    }
    if (std::regex_search(line, m, kStub)) {
      const std::string header = m[1].str(), library = m[2].str();
      add(Diag::Wave64UnsupportedLibrary, library, includer_file, includer_line, 0,
          "wave64 CPU runtime: the program uses " + library + " (<" + header + "> included here), a library the " +
              "runtime cannot run: it runs kernels written against the CUDA/HIP runtime API only",
          "compare this program on a GPU, or replace the library's calls with kernels of the program's own");
      continue;
    }
    if (std::regex_search(line, m, kMissing) || std::regex_search(line, m, kClangMissing)) {
      const std::string header = m[4].str(), library = library_of_header(header);
      // A library header of the other API, kept by a port (<cuda/barrier> in a HIP program):
      // the runtime's stand-in for it on that side names the library.
      std::string stub_library;
      for (const fs::path& d : stub_dirs) {
        std::error_code ec;
        if (!fs::is_regular_file(d / header, ec)) continue;
        std::smatch sm;
        std::string text;
        try {
          text = project::read_file(d / header);
        } catch (const std::exception&) {
          continue;
        }
        if (std::regex_search(text, sm, kStub)) stub_library = sm[2].str();
        break;
      }
      if (!stub_library.empty()) {
        add(Diag::Wave64UnsupportedLibrary, stub_library, original_path(m[1].str(), work),
            static_cast<std::uint32_t>(std::stoul(m[2].str())), static_cast<std::uint32_t>(std::stoul(m[3].str())),
            "wave64 CPU runtime: the program uses " + stub_library + " (<" + header +
                "> included here, a header of the other API's library), a library the runtime cannot run",
            "a CUDA library header in a HIP port has no HIP counterpart (see the migration's report)");
        continue;
      }
      add(Diag::Wave64MissingHeader, header, original_path(m[1].str(), work),
          static_cast<std::uint32_t>(std::stoul(m[2].str())), static_cast<std::uint32_t>(std::stoul(m[3].str())),
          "wave64 CPU runtime: <" + header + "> is neither in the program's folders nor on this machine" +
              (library.empty() ? std::string(" (a file the checkout lacks?)")
                               : " (" + library + ", which neither the corpus nor the runtime provides)"),
          "install the library's headers or give its folder with -I; a GPU-only library cannot run on the runtime");
      continue;
    }
    if (std::regex_search(line, m, kUndeclared)) {
      const std::string name = m[4].str();
      add(Diag::Wave64MissingApi, name, original_path(m[1].str(), work),
          static_cast<std::uint32_t>(std::stoul(m[2].str())), static_cast<std::uint32_t>(std::stoul(m[3].str())),
          "wave64 CPU runtime: `" + name + "` is not declared by the runtime's headers (an API it does not model)",
          "a CUDA name in a HIP port is one the migration left (see its report); otherwise the runtime lacks it");
    }
  }
  return out;
}

std::vector<std::string> library_path_dirs() {
  std::vector<std::string> out;
  const char* env = std::getenv("LIBRARY_PATH");
  if (!env) return out;
  for (const std::string_view part : split(env, ':')) {
    const std::string d(part);
    std::error_code ec;
    if (!d.empty() && fs::is_directory(d, ec) && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  return out;
}

std::vector<Diagnostic> stub_includes(const std::vector<fs::path>& files, const std::vector<fs::path>& dirs,
                                      const std::vector<fs::path>& stub_dirs, bool sub_headers_only) {
  static const std::regex kStub(R"(wave64 CPU runtime: <([^>]+)> \(([^)]+)\) is not supported)");
  std::vector<Diagnostic> out;
  std::set<std::string> seen;                                           // one per library
  std::map<std::string, std::pair<std::string, bool>> library_of_stub;  // header -> library, sub-header
  const auto stub_library = [&](const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::string();
    try {
      const std::string stub = project::read_file(path);
      std::smatch m;
      if (std::regex_search(stub, m, kStub)) return m[2].str();
    } catch (const std::exception&) {
    }
    return std::string();
  };
  for (const fs::path& f : files) {
    std::string text;
    try {
      text = project::read_file(f);
    } catch (const std::exception&) {
      continue;
    }
    for (const lex::Token& t : lex::tokenize(text)) {
      if (t.kind != lex::Kind::HeaderName) continue;
      const std::string_view s = t.text(text);
      if (s.size() < 2) continue;
      const Include inc{std::string(s.substr(1, s.size() - 2)), s.front() == '"'};
      auto it = library_of_stub.find(inc.name);
      if (it == library_of_stub.end()) {
        std::string library;
        bool sub = false;
        for (const fs::path& stub_dir : stub_dirs) {
          std::error_code ec;
          if (fs::is_regular_file(stub_dir / inc.name, ec)) {
            library = stub_library(stub_dir / inc.name);
          } else if (const std::size_t slash = inc.name.find('/'); slash != std::string::npos && slash > 0) {
            // Another header of a library the runtime stands in for by its top header only
            // (<rocprim/block/block_reduce.hpp> beside the stand-in <rocprim/rocprim.hpp>):
            // found in a copy of that library on the machine, or nowhere.
            const std::string lib = inc.name.substr(0, slash);
            for (const char* ext : {".hpp", ".h", ".cuh"})
              if (library.empty()) library = stub_library(stub_dir / lib / (lib + ext));
            sub = !library.empty();
          }
          if (!library.empty()) break;
        }
        it = library_of_stub.emplace(inc.name, std::make_pair(library, sub)).first;
      }
      const auto& [library, sub] = it->second;
      if (library.empty() || (sub_headers_only && !sub)) continue;
      if (!sub && resolve(inc, f.parent_path(), dirs)) continue;
      if (!seen.insert(library).second) continue;
      Diagnostic d;
      d.code = Diag::Wave64UnsupportedLibrary;
      d.severity = Severity::Error;
      d.file = f.string();
      d.line = t.line;
      d.col = t.col;
      d.message = "wave64 CPU runtime: the program uses " + library + " (<" + inc.name +
                  (sub ? "> included here, a header of that library beside the runtime's stand-in for it)"
                       : "> included here; the compile stopped before it, at a header this machine lacks)") +
                  ", a library the runtime cannot run: it runs kernels written against the CUDA/HIP runtime API only";
      d.hint = "compare this program on a GPU, or replace the library's calls with kernels of the program's own";
      out.push_back(std::move(d));
    }
  }
  return out;
}

std::vector<std::string> test_framework_libraries(std::string_view text) {
  // `_main` first: its main() is taken from the archive only when the program has none.
  static const std::regex kInclude(R"(^[ \t]*#[ \t]*include[ \t]*<(gtest|gmock|benchmark)/)", std::regex::multiline);
  std::vector<std::string> libs;
  const std::string s(text);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kInclude); it != std::sregex_iterator(); ++it) {
    const std::string lib = (*it)[1].str();
    std::vector<std::string> add = {"-l" + lib + "_main", "-l" + lib};
    if (lib == "gmock") add.push_back("-lgtest");
    for (const std::string& a : add)
      if (std::find(libs.begin(), libs.end(), a) == libs.end()) libs.push_back(a);
  }
  return libs;
}

BuildResult build(const BuildOptions& o, const verify::ProcessRunner& runner) {
  const auto t0 = std::chrono::steady_clock::now();
  BuildResult r;
  if (o.sources.empty()) throw std::invalid_argument("no source files to build");
  if (o.output.empty()) throw std::invalid_argument("no output file (-o)");
  for (const fs::path& s : o.sources) {
    if (!fs::is_regular_file(s)) throw std::invalid_argument("no such source file: " + s.string());
    if (!is_source_name(s))
      throw std::invalid_argument(s.string() + " is not a source file (.cu, .hip, .cpp, .cc, .cxx, .c)");
  }
  const RuntimeLocation rt = locate_runtime();
  std::vector<fs::path> dirs;
  for (const fs::path& d : o.include_dirs) dirs.push_back(normal(d));

  const std::vector<fs::path> files = closure(o.sources, dirs, &rt);
  r.api = o.api == Api::Auto ? detect_api(files) : o.api;
  r.wave = o.wave != 0 ? o.wave : (r.api == Api::Hip ? 64 : 32);
  if (o.opt.empty() || o.opt.find_first_not_of("0123sgfat") != std::string::npos)
    throw std::invalid_argument("-O takes a level (0, 1, 2, 3, s, g, fast), not '" + o.opt + "'");
  if (r.wave != 16 && r.wave != 32 && r.wave != 64) throw std::invalid_argument("--wave must be 16, 32 or 64");
  if (r.api == Api::Cuda && r.wave != 32)
    throw std::invalid_argument("CUDA programs run with 32-lane warps; build the HIP port for --wave 64");
  r.device = o.device.empty() ? (r.api == Api::Hip ? "gfx906" : "sm90") : o.device;
  if (r.device != "gfx906" && r.device != "sm90")
    throw std::invalid_argument("--device must be gfx906 or sm90, not '" + r.device + "'");

  const fs::path work = o.work_dir.empty() ? fs::path(o.output.string() + ".w64") : o.work_dir;
  fs::create_directories(work / "obj");

  // Transform every file into the mirror.
  std::vector<std::string> host_libs;
  for (const fs::path& f : files) {
    const std::string text = project::read_file(f);
    for (const std::string& l : test_framework_libraries(text))
      if (std::find(host_libs.begin(), host_libs.end(), l) == host_libs.end()) host_libs.push_back(l);
    // OpenMP host code is compiled and linked with the host compiler's OpenMP flag, as every
    // build of it is (HIP-Examples' openmp-helloworld: `hipcc -fopenmp`); without it its
    // omp_* calls stay unlinked.
    r.openmp = r.openmp || verify::uses_openmp(text);
    Transformed t = transform_source(text, f.string(), o.regions);
    r.launches += t.launches;
    r.dynamic_shared += t.dynamic_shared;
    r.regions_split += t.regions_split;
    for (std::string& n : t.region_notes) r.region_notes.push_back(std::move(n));
    for (Diagnostic& d : t.diagnostics) r.diagnostics.push_back(std::move(d));
    const fs::path m = mirror_of(work, f);
    fs::create_directories(m.parent_path());
    // Leave an unchanged mirror alone, so the compiler cache and make-style reuse see old times.
    bool same = false;
    if (fs::is_regular_file(m)) {
      try {
        same = project::read_file(m) == t.text;
      } catch (const std::exception&) {
      }
    }
    if (!same) project::write_atomically(m, t.text);
    ++r.files;
  }
  sort_diagnostics(r.diagnostics);
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) {
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return r;
    }

  std::vector<std::string> common = {"-std=" + o.std,
                                     "-O" + o.opt,
                                     "-pthread",
                                     "-fno-strict-aliasing",
                                     "-DW64_WAVE_SIZE=" + std::to_string(r.wave),
                                     r.device == "gfx906" ? "-DW64_DEVICE_GFX906=1" : "-DW64_DEVICE_SM90=1"};
  if (!o.warnings) common.push_back("-w");
  // A missing library header (our #error stubs) is the first message; the cascade after it is noise.
  common.push_back(o.cxx.find("clang") != std::string::npos ? "-ferror-limit=20" : "-fmax-errors=20");
  if (r.api == Api::Hip) common.push_back("-D__HIP_PLATFORM_AMD__=1");
  common.push_back("-I" + rt.include.string());
  common.push_back("-I" + (r.api == Api::Hip ? rt.hip : rt.cuda).string());
  for (const fs::path& d : dirs) common.push_back("-I" + mirror_of(work, d).string());
  for (const fs::path& d : dirs) common.push_back("-I" + d.string());
  for (const std::string& d : o.defines) common.push_back("-D" + d);
  for (const std::string& f : o.cxx_flags) common.push_back(f);
  if (r.openmp) common.emplace_back(verify::kOpenmpFlag);

  // One compile per source; .c files are C, the rest C++ (as nvcc and hipcc treat them).
  struct Job {
    std::vector<std::string> argv;
    fs::path object;
  };
  std::vector<Job> jobs;
  std::map<std::string, int> stem_count;
  for (const fs::path& s : o.sources) {
    const fs::path abs = normal(s);
    const fs::path m = mirror_of(work, abs);
    const std::string stem = abs.stem().string();
    const int n = stem_count[stem]++;
    const fs::path obj = work / "obj" / (stem + (n ? "_" + std::to_string(n) : "") + ".o");
    Job j;
    j.object = obj;
    if (abs.extension() == ".c") {
      const std::string cc = o.cxx.find("clang") != std::string::npos ? "clang" : "cc";
      j.argv = {cc, "-x", "c", "-O" + o.opt, "-w", "-c", m.string(), "-o", obj.string()};
      for (const fs::path& d : dirs) j.argv.push_back("-I" + d.string());
      if (r.openmp) j.argv.emplace_back(verify::kOpenmpFlag);
    } else {
      j.argv = {o.cxx, "-x", "c++"};
      j.argv.insert(j.argv.end(), common.begin(), common.end());
      if (r.api == Api::Cuda && (abs.extension() == ".cu")) {
        j.argv.push_back("-include");
        j.argv.push_back("cuda_runtime.h");  // nvcc includes it in every .cu file
      }
      j.argv.insert(j.argv.end(), {"-c", m.string(), "-o", obj.string()});
    }
    // Sources can include siblings that are not headers (a .cu including a .cu): quoted includes
    // look next to the original too.
    j.argv.push_back("-iquote");
    j.argv.push_back(abs.parent_path().string());
    jobs.push_back(std::move(j));
  }

  const unsigned n_jobs = std::max(1u, std::min<unsigned>(o.jobs ? o.jobs : std::thread::hardware_concurrency(),
                                                          static_cast<unsigned>(jobs.size())));
  std::vector<verify::ProcessResult> results(jobs.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();)
      results[i] = runner.run(jobs[i].argv, fs::current_path(), o.timeout);
  };
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < n_jobs; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  bool compiled = true;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    r.commands.push_back(jobs[i].argv);
    r.compiler_output += results[i].output;
    if (results[i].exit_code != 0) {
      compiled = false;
      if (results[i].timed_out) r.compiler_output += "ferry: the compiler timed out\n";
      if (results[i].launch_failed) r.compiler_output += "ferry: could not start " + jobs[i].argv[0] + "\n";
    }
  }
  if (compiled) {
    std::vector<std::string> link = {o.cxx};
    for (const Job& j : jobs) link.push_back(j.object.string());
    link.push_back(rt.library.string());
    // The host libraries the driver adds are looked up in LIBRARY_PATH's folders before the
    // system's: gcc searches LIBRARY_PATH after /usr/lib/<triple>, while CPLUS_INCLUDE_PATH's
    // headers come before the system's, so a copy given in both (with a system copy of another
    // version beside it) would otherwise compile against one version and link the other.
    if (!host_libs.empty())
      for (const std::string& d : library_path_dirs()) link.push_back("-L" + d);
    link.insert(link.end(), host_libs.begin(), host_libs.end());
    link.insert(link.end(), rt.link.begin(), rt.link.end());
    link.insert(link.end(), o.link_flags.begin(), o.link_flags.end());
    if (r.openmp) link.emplace_back(verify::kOpenmpFlag);
    link.push_back("-o");
    link.push_back(o.output.string());
    if (o.output.has_parent_path()) fs::create_directories(o.output.parent_path());
    const verify::ProcessResult lr = runner.run(link, fs::current_path(), o.timeout);
    r.commands.push_back(link);
    r.compiler_output += lr.output;
    r.ok = lr.exit_code == 0;
    if (!r.ok && !o.sources.empty()) report_unlinked(lr.output, o.sources.front(), r);
  } else {
    // What stopped the compile, named: a library the runtime does not run, a header that is
    // nowhere, an API name it does not declare (FRY9412-9414); the compiler's text follows.
    std::vector<Diagnostic> found = diagnose_compiler_output(r.compiler_output, work, {rt.cuda, rt.hip});
    // A compile stopped at a header this machine lacks may not have reached a library stand-in
    // the program includes later (<GL/gl.h> before <cuda_gl_interop.h>): name that library too,
    // so the verdict does not depend on the machine's headers or the order of the includes.
    // Another header of a stood-in library (rocPRIM's block headers) is named whatever the compile
    // stopped on: a copy of the library on the machine (Debian's rocPRIM) fails in its own code.
    const bool missing = std::any_of(found.begin(), found.end(),
                                     [](const Diagnostic& d) { return d.code == Diag::Wave64MissingHeader; });
    for (Diagnostic& d : stub_includes(files, dirs, {rt.cuda, rt.hip}, !missing))
      if (const std::string key = d.message.substr(0, d.message.find(" (<") + 3);
          std::none_of(found.begin(), found.end(), [&](const Diagnostic& e) {
            return e.code == Diag::Wave64UnsupportedLibrary && e.message.starts_with(key);
          }))
        found.push_back(std::move(d));
    for (Diagnostic& d : found) r.diagnostics.push_back(std::move(d));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

int run_program(const fs::path& exe, const std::vector<std::string>& args) {
  std::vector<std::string> argv_s = {exe.string()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv_s[0].c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot start " + exe.string());
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace ferry::wave64
