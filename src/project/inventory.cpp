#include "project/inventory.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <unordered_set>

#include <fmt/format.h>

#include "lex/lexer.h"
#include "lex/python_lexer.h"
#include "migrate/file_migration.h"
#include "report/json_report.h"

namespace fs = std::filesystem;

namespace ferry::project {
namespace {

bool starts(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
bool ends(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}
bool upper_at(std::string_view s, std::size_t i) {
  return i < s.size() && std::isupper(static_cast<unsigned char>(s[i]));
}
std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

// ----- libraries
// -------------------------------------------------------------------------------

struct LibraryInfo {
  std::string_view id;
  std::string_view name;
  std::string_view category;
};

constexpr LibraryInfo kLibraries[] = {
    {"cuda-runtime", "CUDA runtime", "gpu-library"},
    {"cuda-driver", "CUDA driver", "gpu-library"},
    {"cublas", "cuBLAS", "gpu-library"},
    {"cublaslt", "cuBLASLt", "gpu-library"},
    {"cudnn", "cuDNN", "gpu-library"},
    {"cufft", "cuFFT", "gpu-library"},
    {"curand", "cuRAND", "gpu-library"},
    {"cusparse", "cuSPARSE", "gpu-library"},
    {"cusolver", "cuSOLVER", "gpu-library"},
    {"nccl", "NCCL", "gpu-library"},
    {"cub", "CUB", "gpu-library"},
    {"thrust", "Thrust", "gpu-library"},
    {"nvrtc", "NVRTC", "gpu-library"},
    {"cooperative-groups", "cooperative groups", "gpu-library"},
    {"wmma", "WMMA (mma.h)", "gpu-library"},
    {"libcudacxx", "libcu++ (cuda::)", "gpu-library"},
    {"nvtx", "NVTX", "gpu-library"},
    {"nvml", "NVML", "gpu-library"},
    {"cutlass", "CUTLASS", "gpu-library"},
    {"hip-runtime", "HIP runtime", "gpu-library"},
    {"pytorch-cpp", "PyTorch C++ extension (torch/extension.h, ATen)",
     "framework"},
    {"pytorch", "PyTorch (Python, CUDA device use)", "framework"},
    {"cupy", "CuPy", "framework"},
    {"pycuda", "PyCUDA", "framework"},
    {"triton", "Triton", "framework"},
    {"numba-cuda", "Numba CUDA", "framework"},
};

const LibraryInfo *library_info(std::string_view id) {
  for (const LibraryInfo &l : kLibraries)
    if (l.id == id)
      return &l;
  return nullptr;
}

// Which library an included header belongs to; empty when it is none we know.
std::string_view header_library(std::string_view path) {
  if (path == "cuda.h" || path == "cudaTypedefs.h")
    return "cuda-driver";
  if (starts(path, "cublasLt"))
    return "cublaslt";
  if (starts(path, "cublas"))
    return "cublas";
  if (starts(path, "cudnn"))
    return "cudnn";
  if (starts(path, "cufft"))
    return "cufft";
  if (starts(path, "curand"))
    return "curand";
  if (starts(path, "cusparse"))
    return "cusparse";
  if (starts(path, "cusolver"))
    return "cusolver";
  if (path == "nccl.h" || path == "nccl_net.h")
    return "nccl";
  if (starts(path, "cub/"))
    return "cub";
  if (starts(path, "thrust/"))
    return "thrust";
  if (starts(path, "nvrtc"))
    return "nvrtc";
  if (starts(path, "cooperative_groups"))
    return "cooperative-groups";
  if (path == "mma.h")
    return "wmma";
  if (starts(path, "cuda/"))
    return "libcudacxx";
  if (starts(path, "nvToolsExt") || starts(path, "nvtx3/"))
    return "nvtx";
  if (path == "nvml.h")
    return "nvml";
  if (starts(path, "cutlass/") || starts(path, "cute/"))
    return "cutlass";
  if (starts(path, "torch/") || starts(path, "ATen/") || starts(path, "c10/"))
    return "pytorch-cpp";
  if (starts(path, "hip/"))
    return "hip-runtime";
  if (starts(path, "cuda_") || starts(path, "cuda_runtime") ||
      path == "device_launch_parameters.h" || path == "vector_types.h" ||
      path == "driver_types.h" || path == "math_constants.h" ||
      path == "cuComplex.h" || path == "device_functions.h")
    return "cuda-runtime";
  return {};
}

// The library of a rule family of the built-in tables.
std::string_view family_library(std::string_view family) {
  if (family == "driver")
    return "cuda-driver";
  if (family == "cublas" || family == "cublaslt" || family == "cudnn" ||
      family == "cufft" || family == "cusparse" || family == "cusolver" ||
      family == "nccl" || family == "cub" || family == "thrust" ||
      family == "nvrtc")
    return family;
  if (family == "curand" || family == "curand_device")
    return "curand";
  if (family == "coop_groups")
    return "cooperative-groups";
  return "cuda-runtime"; // runtime, device, math, graph, texture, headers,
                         // fp16, bf16, complex
}

// A name no table knows but whose prefix says which CUDA library it belongs to.
struct Guess {
  std::string_view family;
  std::string_view library;
};
std::optional<Guess> guess_by_prefix(std::string_view n) {
  struct P {
    std::string_view lower, upper, family;
  };
  static constexpr P kPrefixes[] = {
      {"cublasLt", "CUBLASLT_", "cublaslt"},
      {"cublas", "CUBLAS_", "cublas"},
      {"cudnn", "CUDNN_", "cudnn"},
      {"cufft", "CUFFT_", "cufft"},
      {"curand", "CURAND_", "curand"},
      {"cusparse", "CUSPARSE_", "cusparse"},
      {"cusolver", "CUSOLVER_", "cusolver"},
      {"nccl", "NCCL_", "nccl"},
      {"nvrtc", "NVRTC_", "nvrtc"},
  };
  for (const P &p : kPrefixes) {
    const bool low = starts(n, p.lower) && n.size() > p.lower.size() &&
                     (upper_at(n, p.lower.size()) || n[p.lower.size()] == '_');
    if (low || (starts(n, p.upper) && n.size() > p.upper.size()))
      return Guess{p.family, family_library(p.family)};
  }
  if (starts(n, "cuda") && upper_at(n, 4))
    return Guess{"runtime", "cuda-runtime"};
  if (starts(n, "CUDA_") && n.size() > 5)
    return Guess{"runtime", "cuda-runtime"};
  if (starts(n, "cu") && upper_at(n, 2))
    return Guess{"driver", "cuda-driver"};
  if (starts(n, "CU") && n.size() > 2 &&
      (std::islower(static_cast<unsigned char>(n[2])) || n[2] == '_'))
    return Guess{"driver", "cuda-driver"};
  return std::nullopt;
}

// Namespaces that mark a library even when no table lists them.
std::string_view namespace_library(std::string_view ns) {
  if (ns == "thrust")
    return "thrust";
  if (ns == "cub")
    return "cub";
  if (ns == "cooperative_groups")
    return "cooperative-groups";
  if (ns == "nvcuda")
    return "wmma";
  if (ns == "cuda")
    return "libcudacxx";
  return {};
}

bool is_warp_intrinsic(std::string_view n) {
  return starts(n, "__shfl") || starts(n, "__ballot") || n == "__activemask" ||
         n == "__syncwarp" || starts(n, "__match_") ||
         (starts(n, "__reduce_") && ends(n, "_sync")) || n == "__any_sync" ||
         n == "__all_sync" || n == "__uni_sync" || n == "__any" || n == "__all";
}

// Support of constructs that are not names in a table, per target. A new target
// adds its row here; a target without a row reports "unknown".
std::string construct_status(std::string_view target,
                             std::string_view construct) {
  struct Row {
    std::string_view target, construct, status;
  };
  static constexpr Row kRows[] = {
      {"hip", "kernel", "supported"},        {"hip", "launch", "supported"},
      {"hip", "inline-asm", "unsupported"},  {"hip", "pytorch", "supported"},
      {"cuda", "kernel", "supported"},       {"cuda", "launch", "supported"},
      {"cuda", "inline-asm", "unsupported"},
  };
  for (const Row &r : kRows)
    if (r.target == target && r.construct == construct)
      return std::string(r.status);
  return "unknown";
}

std::string rule_kind_name(rules::RuleKind k) {
  switch (k) {
  case rules::RuleKind::Func:
  case rules::RuleKind::Call:
    return "function";
  case rules::RuleKind::Type:
    return "type";
  case rules::RuleKind::Enum:
    return "enum";
  case rules::RuleKind::Macro:
    return "macro";
  case rules::RuleKind::Header:
    return "header";
  case rules::RuleKind::Namespace:
    return "namespace";
  }
  return "?";
}

// ----- per-file scanning
// -----------------------------------------------------------------------

struct FileScan {
  FileInventory file;
  std::vector<ApiUse> uses;
  std::vector<BuildSystem> builds;
  std::vector<Diagnostic> problems;
  std::set<std::string>
      defined_macros; // #define'd in this file: never guessed as CUDA names
  std::vector<bool> guessed; // parallel to `uses`: found by prefix only
};

class Scanner {
public:
  Scanner(const std::string &rel, std::string_view text,
          const std::vector<const targets::Target *> &targets, FileScan &out)
      : rel_(rel), text_(text), targets_(targets), out_(out) {}

  void use(std::uint32_t line, std::uint32_t col, std::string name,
           std::string family, std::string kind, std::string library,
           std::map<std::string, std::string> status, std::string note = {},
           bool guessed = false) {
    out_.uses.push_back(ApiUse{
        rel_, line, col, std::move(name), std::move(family), std::move(kind),
        std::move(library), std::move(status), std::move(note)});
    out_.guessed.push_back(guessed);
  }
  std::map<std::string, std::string> construct(std::string_view c) const {
    std::map<std::string, std::string> m;
    for (const targets::Target *t : targets_)
      m[std::string(t->name())] = construct_status(t->name(), c);
    return m;
  }
  std::map<std::string, std::string> unknown() const {
    std::map<std::string, std::string> m;
    for (const targets::Target *t : targets_)
      m[std::string(t->name())] = "unknown";
    return m;
  }
  void build(std::string id, std::string detail, std::uint32_t line,
             std::uint32_t col) {
    for (const BuildSystem &b : out_.builds)
      if (b.id == id && b.detail == detail)
        return; // once per file is enough
    out_.builds.push_back(
        BuildSystem{std::move(id), std::move(detail), rel_, line, col});
  }

  void scan_c_family();
  void scan_python(bool bazel);
  void scan_cmake();
  void scan_make();

private:
  template <class Lookup>
  const rules::Rule *lookup(Lookup f,
                            std::map<std::string, std::string> &status) const {
    const rules::Rule *first = nullptr;
    for (const targets::Target *t : targets_) {
      const rules::Rule *r = f(t->rules());
      status[std::string(t->name())] =
          r ? std::string(rules::to_string(r->status)) : "unknown";
      if (r && !first)
        first = r;
    }
    return first;
  }

  const std::string &rel_;
  std::string_view text_;
  const std::vector<const targets::Target *> &targets_;
  FileScan &out_;
};

void Scanner::scan_c_family() {
  const targets::ProjectContext ctx;
  const targets::Options opts;
  migrate::FileMigration f(rel_, text_, *targets_.front(), opts, ctx);
  out_.file.lines = f.stats().lines;
  const std::size_t n = f.code_size();
  for (std::size_t ci = 0; ci < n; ++ci) {
    const lex::Token &t = f.code(ci);
    if (t.kind == lex::Kind::HeaderName) {
      const std::string_view raw = f.text(ci);
      const std::string path(raw.substr(1, raw.size() - 2));
      std::map<std::string, std::string> status;
      const rules::Rule *r =
          lookup([&](const rules::RuleSet &rs) { return rs.find_header(path); },
                 status);
      std::string lib(header_library(path));
      if (lib.empty() && r)
        lib = family_library(r->family);
      if (lib.empty())
        continue;
      if (lib == "pytorch-cpp")
        status = construct("pytorch");
      const std::string family = r                      ? r->family
                                 : lib == "pytorch-cpp" ? "pytorch"
                                                        : lib;
      use(t.line, t.col, path, family, "header", lib, std::move(status),
          r ? r->note : "", false);
      continue;
    }
    if (t.kind == lex::Kind::LaunchOpen) {
      // The kernel's name: the identifier before `<<<`, or before its template
      // arguments.
      std::size_t k = ci;
      std::string name = "<<<";
      if (k > 0 && f.is(k - 1, ">")) {
        int depth = 0;
        while (k > 0) {
          --k;
          const std::string_view s = f.text(k);
          if (s == ">")
            ++depth;
          else if (s == ">>")
            depth += 2;
          else if (s == "<" && --depth == 0)
            break;
          else if (s == ";" || s == "{" || s == "}")
            break;
        }
      }
      if (k > 0 && f.is_identifier(k - 1))
        name = f.text(k - 1);
      use(t.line, t.col, name, "kernel", "launch", "cuda-runtime",
          construct("launch"));
      continue;
    }
    if (t.kind != lex::Kind::Identifier)
      continue;
    const std::string_view name = f.text(ci);

    if (t.in_directive) {
      if (ci >= 2 && (f.is(ci - 1, "define") || f.is(ci - 1, "undef")) &&
          f.is(ci - 2, "#")) {
        out_.defined_macros.emplace(name);
        continue;
      }
    } else if (name == "__global__") {
      // Kernel definition: the identifier before the parameter list, past
      // __launch_bounds__(...).
      std::size_t k = ci + 1;
      std::size_t name_ci = migrate::npos;
      while (k < n && !f.is(k, ";") && !f.is(k, "{")) {
        if (f.is(k, "(")) {
          if (k > 0 && (f.is(k - 1, "__launch_bounds__") ||
                        f.is(k - 1, "__attribute__") ||
                        f.is(k - 1, "__declspec") || f.is(k - 1, "alignas"))) {
            const std::size_t close = f.match_bracket(k);
            if (close == migrate::npos)
              break;
            k = close + 1;
            continue;
          }
          if (f.is_identifier(k - 1))
            name_ci = k - 1;
          const std::size_t close = f.match_bracket(k);
          if (close == migrate::npos)
            name_ci = migrate::npos;
          k = close == migrate::npos ? n : close + 1;
          break;
        }
        ++k;
      }
      // Skip trailing qualifiers up to the body; a `;` means a declaration, not
      // a kernel.
      while (k < n && !f.is(k, "{") && !f.is(k, ";"))
        ++k;
      if (name_ci != migrate::npos && f.is(k, "{")) {
        const lex::Token &nt = f.code(name_ci);
        use(nt.line, nt.col, std::string(f.text(name_ci)), "kernel", "kernel",
            "cuda-runtime", construct("kernel"));
      }
      continue;
    }

    if (name == "asm" || name == "__asm__" || name == "__asm") {
      std::size_t open = ci + 1;
      while (f.is(open, "volatile") || f.is(open, "__volatile__") ||
             f.is(open, "goto") || f.is(open, "inline"))
        ++open;
      if (!f.is(open, "("))
        continue;
      std::string body;
      for (const migrate::ArgRange &a : f.call_args(open)) {
        if (a.empty())
          continue;
        const lex::Kind k = f.code(a.first).kind;
        if (k == lex::Kind::String || k == lex::Kind::RawString)
          body = f.text(a.first);
        break;
      }
      const bool ptx = body.find('%') != std::string::npos ||
                       body.find('.') != std::string::npos;
      use(t.line, t.col, std::string(name), "device", "inline-asm",
          "cuda-runtime", construct("inline-asm"), ptx ? "PTX" : "");
      continue;
    }

    if (f.is(ci + 1, "::") && !f.is_member_or_qualified(ci)) {
      std::map<std::string, std::string> status;
      const rules::Rule *r = lookup(
          [&](const rules::RuleSet &rs) { return rs.find_namespace(name); },
          status);
      std::string lib(namespace_library(name));
      if (r && lib.empty())
        lib = family_library(r->family);
      if (!lib.empty()) {
        std::string full(name);
        if (f.is_identifier(ci + 2))
          full += "::" + std::string(f.text(ci + 2));
        use(t.line, t.col, std::move(full), r ? r->family : lib, "namespace",
            lib, r ? status : unknown(), r ? r->note : "");
        ci += f.is_identifier(ci + 2) ? 2 : 1;
        continue;
      }
    }
    if (f.is_member_or_qualified(ci))
      continue;

    std::map<std::string, std::string> status;
    const rules::Rule *r = lookup(
        [&](const rules::RuleSet &rs) { return rs.find_identifier(name); },
        status);
    if (r) {
      const std::string kind =
          is_warp_intrinsic(name) ? "warp-intrinsic" : rule_kind_name(r->kind);
      use(t.line, t.col, std::string(name), r->family, kind,
          std::string(family_library(r->family)), std::move(status), r->note);
      continue;
    }
    if (const auto g = guess_by_prefix(name)) {
      const bool call = f.is(ci + 1, "(");
      bool all_caps = true;
      for (char c : name)
        all_caps = all_caps && !std::islower(static_cast<unsigned char>(c));
      use(t.line, t.col, std::string(name), std::string(g->family),
          call       ? "function"
          : all_caps ? "constant"
                     : "type",
          std::string(g->library), unknown(), "not in the target's tables",
          true);
    }
  }
}

// Python (and Starlark: Bazel files share the syntax) through lex's lossless
// lexer, without the trivia; a string's text is its body, without prefix and
// quotes.
struct PyToken {
  lex::py::Kind kind;
  std::string_view text;
  std::uint32_t line, col;
};

std::vector<PyToken> py_code_tokens(std::string_view s) {
  std::vector<PyToken> out;
  for (const lex::py::Token &t : lex::py::tokenize(s)) {
    if (lex::py::is_trivia(t.kind))
      continue;
    std::string_view text = t.text(s);
    if (t.kind == lex::py::Kind::String)
      text = lex::py::split_string(text).body;
    out.push_back({t.kind, text, t.line, t.col});
  }
  return out;
}

void Scanner::scan_python(bool bazel) {
  const std::vector<PyToken> toks = py_code_tokens(text_);
  out_.file.lines =
      static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) +
      (text_.empty() || text_.back() == '\n' ? 0 : 1);
  auto is = [&](std::size_t i, std::string_view t) {
    return i < toks.size() && toks[i].text == t;
  };
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const PyToken &t = toks[i];
    if (bazel) {
      if (t.kind == lex::py::Kind::Name && starts(t.text, "cuda_") &&
          is(i + 1, "("))
        build("bazel", std::string(t.text), t.line, t.col);
      if (t.kind == lex::py::Kind::String &&
          (t.text.find("local_config_cuda") != std::string_view::npos ||
           t.text.find("rules_cuda") != std::string_view::npos))
        build("bazel",
              "CUDA toolchain (" + std::string(t.text.substr(0, 60)) + ")",
              t.line, t.col);
      continue;
    }
    if (t.kind == lex::py::Kind::String) {
      if (t.text == "cuda" || (starts(t.text, "cuda:") && t.text.size() <= 8))
        use(t.line, t.col, "\"" + std::string(t.text) + "\"", "pytorch",
            "device-string", "pytorch", construct("pytorch"));
      continue;
    }
    if (t.kind != lex::py::Kind::Name)
      continue;
    const bool after_dot = i > 0 && is(i - 1, ".");
    if ((t.text == "import" || t.text == "from") && i + 1 < toks.size() &&
        !after_dot) {
      const std::string_view mod = toks[i + 1].text;
      std::string lib = mod == "torch"    ? "pytorch"
                        : mod == "cupy"   ? "cupy"
                        : mod == "pycuda" ? "pycuda"
                        : mod == "triton" ? "triton"
                                          : "";
      if (mod == "numba" &&
          (is(i + 3, "cuda") || (is(i + 2, "import") && is(i + 3, "cuda"))))
        lib = "numba-cuda";
      if (!lib.empty())
        use(toks[i + 1].line, toks[i + 1].col, std::string(mod),
            lib == "pytorch" ? "pytorch" : lib, "import", lib,
            lib == "pytorch" ? construct("pytorch") : unknown());
      continue;
    }
    if (t.text == "CUDAExtension" || t.text == "BuildExtension" ||
        t.text == "load_inline") {
      if (!after_dot || (i >= 2 && is(i - 2, "cpp_extension"))) {
        if (t.text != "BuildExtension")
          build("setuptools",
                "torch.utils.cpp_extension." + std::string(t.text), t.line,
                t.col);
        if (t.text == "CUDAExtension")
          use(t.line, t.col, std::string(t.text), "pytorch", "build",
              "pytorch-cpp", construct("pytorch"));
      }
      continue;
    }
    if (t.text == "cuda" && after_dot) {
      const bool torch = i >= 2 && is(i - 2, "torch");
      if (is(i + 1, "(")) {
        use(t.line, t.col, ".cuda()", "pytorch", "call", "pytorch",
            construct("pytorch"));
      } else if (torch) {
        std::string full = "torch.cuda";
        if (is(i + 1, ".") && i + 2 < toks.size() &&
            toks[i + 2].kind == lex::py::Kind::Name)
          full += "." + std::string(toks[i + 2].text);
        use(t.line, t.col, std::move(full), "pytorch", "call", "pytorch",
            construct("pytorch"));
      } else if (i >= 2 && is(i - 2, "numba")) {
        use(t.line, t.col, "numba.cuda", "numba-cuda", "call", "numba-cuda",
            unknown());
      }
    }
  }
}

// CMake: `#` and `#[[...]]` comments, quoted and bracket arguments, commands
// `name(args)`.
void Scanner::scan_cmake() {
  struct Arg {
    std::string_view text;
    std::uint32_t line, col;
  };
  const std::string_view s = text_;
  std::uint32_t line = 1;
  std::size_t line_start = 0, i = 0;
  auto col = [&](std::size_t at) {
    return static_cast<std::uint32_t>(at - line_start + 1);
  };
  auto advance_to = [&](std::size_t to) {
    for (; i < to && i < s.size(); ++i)
      if (s[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
  };
  auto bracket_end =
      [&](std::size_t at) -> std::size_t { // at: '[' ; npos if not a bracket
    std::size_t k = at + 1, eq = 0;
    while (k < s.size() && s[k] == '=')
      ++k, ++eq;
    if (k >= s.size() || s[k] != '[')
      return std::string_view::npos;
    const std::string close = "]" + std::string(eq, '=') + "]";
    const std::size_t e = s.find(close, k + 1);
    return e == std::string_view::npos ? s.size() : e + close.size();
  };
  std::string command;
  std::uint32_t cmd_line = 0, cmd_col = 0;
  int depth = 0;
  std::vector<Arg> args;
  std::string_view last_word;
  std::uint32_t last_line = 0, last_col = 0;
  out_.file.lines =
      static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) +
      (s.empty() || s.back() == '\n' ? 0 : 1);
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n' || std::isspace(static_cast<unsigned char>(c))) {
      advance_to(i + 1);
      continue;
    }
    if (c == '#') {
      std::size_t e = s[i + 1 < s.size() ? i + 1 : i] == '['
                          ? bracket_end(i + 1)
                          : std::string_view::npos;
      if (e == std::string_view::npos)
        e = s.find('\n', i);
      advance_to(e == std::string_view::npos ? s.size() : e);
      continue;
    }
    if (c == '(') {
      if (depth == 0) {
        command = lower(last_word);
        cmd_line = last_line;
        cmd_col = last_col;
        args.clear();
      }
      ++depth;
      advance_to(i + 1);
      continue;
    }
    if (c == ')') {
      if (depth > 0 && --depth == 0) {
        auto has = [&](std::string_view w) {
          return std::any_of(args.begin(), args.end(),
                             [&](const Arg &a) { return a.text == w; });
        };
        if (command == "project" && has("CUDA"))
          build("cmake", "project(... LANGUAGES CUDA)", cmd_line, cmd_col);
        if ((command == "enable_language" || command == "check_language") &&
            has("CUDA"))
          build("cmake", command + "(CUDA)", cmd_line, cmd_col);
        if (command == "find_package" && !args.empty()) {
          const std::string_view p = args.front().text;
          if (p == "CUDA")
            build("cmake", "find_package(CUDA) (legacy FindCUDA)", cmd_line,
                  cmd_col);
          if (p == "CUDAToolkit")
            build("cmake", "find_package(CUDAToolkit)", cmd_line, cmd_col);
          if (p == "Torch")
            use(cmd_line, cmd_col, "find_package(Torch)", "pytorch", "build",
                "pytorch-cpp", {});
          if (p == "NCCL")
            use(cmd_line, cmd_col, "find_package(NCCL)", "nccl", "build",
                "nccl", {});
          if (p == "CUDNN" || p == "cuDNN")
            use(cmd_line, cmd_col, "find_package(cuDNN)", "cudnn", "build",
                "cudnn", {});
        }
        if (starts(command, "cuda_add_"))
          build("cmake", command + " (legacy FindCUDA)", cmd_line, cmd_col);
        if (command == "find_library" || command == "target_link_libraries" ||
            command == "find_path" || command == "link_libraries") {
          for (const Arg &a : args) {
            std::string_view lib = a.text;
            if (starts(lib, "CUDA::"))
              lib.remove_prefix(6);
            if (ends(lib, "_static"))
              lib.remove_suffix(7);
            if (lib == "nccl.h")
              lib = "nccl";
            std::string_view id =
                lib == "cudart"        ? "cuda-runtime"
                : lib == "cuda_driver" ? "cuda-driver"
                : lib == "cublasLt"    ? "cublaslt"
                : lib == "curand"      ? "curand"
                : (lib == "cublas" || lib == "cudnn" || lib == "cufft" ||
                   lib == "cusparse" || lib == "cusolver" || lib == "nccl" ||
                   lib == "nvrtc")
                    ? lib
                    : "";
            if (!id.empty())
              use(a.line, a.col, std::string(a.text), std::string(id), "link",
                  std::string(id), {});
          }
        }
      }
      advance_to(i + 1);
      continue;
    }
    std::size_t e = i;
    if (c == '"') {
      e = i + 1;
      while (e < s.size() && s[e] != '"')
        e += s[e] == '\\' ? 2 : 1;
      const Arg a{s.substr(i + 1, std::min(e, s.size()) - i - 1), line, col(i)};
      if (depth > 0)
        args.push_back(a);
      advance_to(std::min(e + 1, s.size()));
      continue;
    }
    if (c == '[') {
      const std::size_t be = bracket_end(i);
      if (be != std::string_view::npos) {
        advance_to(be);
        continue;
      }
    }
    while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e])) &&
           s[e] != '(' && s[e] != ')' && s[e] != '#' && s[e] != '"')
      ++e;
    const Arg a{s.substr(i, e - i), line, col(i)};
    if (depth > 0)
      args.push_back(a);
    last_word = a.text;
    last_line = a.line;
    last_col = a.col;
    advance_to(e);
  }
}

// Makefiles: words outside `#` comments; nvcc and -l<cuda library> are what
// matter.
void Scanner::scan_make() {
  const std::string_view s = text_;
  std::uint32_t line = 0;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t end = s.find('\n', pos);
    if (end == std::string_view::npos)
      end = s.size();
    ++line;
    std::string_view ln = s.substr(pos, end - pos);
    for (std::size_t k = 0; k < ln.size(); ++k)
      if (ln[k] == '#' && (k == 0 || ln[k - 1] != '\\')) {
        ln = ln.substr(0, k);
        break;
      }
    std::size_t k = 0;
    auto sep = [](char c) {
      return std::isspace(static_cast<unsigned char>(c)) || c == '=' ||
             c == ':' || c == ';' || c == ',' || c == '(' || c == ')' ||
             c == '$' || c == '{' || c == '}' || c == '"' || c == '\'' ||
             c == '?' || c == '+';
    };
    while (k < ln.size()) {
      while (k < ln.size() && sep(ln[k]))
        ++k;
      std::size_t e = k;
      while (e < ln.size() && !sep(ln[e]))
        ++e;
      if (e > k) {
        const std::string_view w = ln.substr(k, e - k);
        const auto c = static_cast<std::uint32_t>(k + 1);
        if (lower(w) == "nvcc" || ends(w, "/nvcc"))
          build("make", "nvcc", line, c);
        if (starts(w, "-l")) {
          const std::string_view lib = w.substr(2);
          std::string_view id =
              lib == "cudart"     ? "cuda-runtime"
              : lib == "cuda"     ? "cuda-driver"
              : lib == "cublasLt" ? "cublaslt"
              : (lib == "cublas" || lib == "cudnn" || lib == "cufft" ||
                 lib == "curand" || lib == "cusparse" || lib == "cusolver" ||
                 lib == "nccl" || lib == "nvrtc")
                  ? lib
                  : "";
          if (!id.empty())
            use(line, c, std::string(w), std::string(id), "link",
                std::string(id), {});
        }
      }
      k = e;
    }
    out_.file.lines = line;
    if (end == s.size())
      break;
    pos = end + 1;
  }
  if (!s.empty() && s.back() == '\n')
    out_.file.lines = line - 1;
}

bool is_bazel_name(const fs::path &rel) {
  const std::string n = rel.filename().string();
  return n == "BUILD" || n == "BUILD.bazel" || n == "WORKSPACE" ||
         n == "WORKSPACE.bazel" || n == "MODULE.bazel" ||
         rel.extension() == ".bzl";
}

bool parsed_kind(std::string_view kind) {
  return kind == "cuda" || kind == "cuda-header" || kind == "hip" ||
         kind == "c++" || kind == "header" || kind == "python" ||
         kind == "cmake" || kind == "makefile" || kind == "bazel";
}

void scan_into(const std::string &rel, const std::string &kind,
               std::string_view text,
               const std::vector<const targets::Target *> &targets,
               FileScan &out) {
  if (targets.empty())
    throw std::invalid_argument("scanning needs at least one target");
  Scanner sc(rel, text, targets, out);
  if (kind == "python")
    sc.scan_python(false);
  else if (kind == "bazel")
    sc.scan_python(true);
  else if (kind == "cmake")
    sc.scan_cmake();
  else if (kind == "makefile")
    sc.scan_make();
  else
    sc.scan_c_family();
  out.file.parsed = true;
}

} // namespace

// ----- public
// ----------------------------------------------------------------------------------

std::string library_name(std::string_view id) {
  const LibraryInfo *l = library_info(id);
  return l ? std::string(l->name) : std::string(id);
}

void scan_buffer(const std::string &rel, const std::string &kind,
                 std::string_view text,
                 const std::vector<const targets::Target *> &targets,
                 FileInventory &file, std::vector<ApiUse> &uses,
                 std::vector<BuildSystem> &builds) {
  FileScan scan;
  scan.file = file;
  scan_into(rel, kind, text, targets, scan);
  file = std::move(scan.file);
  // Names this file #defines itself are the user's, even with a CUDA-looking
  // prefix.
  for (std::size_t i = 0; i < scan.uses.size(); ++i)
    if (!scan.guessed[i] || !scan.defined_macros.contains(scan.uses[i].name))
      uses.push_back(std::move(scan.uses[i]));
  std::stable_sort(uses.begin(), uses.end(),
                   [](const ApiUse &a, const ApiUse &b) {
                     return std::tie(a.file, a.line, a.col) <
                            std::tie(b.file, b.line, b.col);
                   });
  for (auto &b : scan.builds)
    builds.push_back(std::move(b));
}

Effort file_effort(const std::vector<const ApiUse *> &uses,
                   std::string_view target, bool parsed_source) {
  Effort e;
  std::set<std::string> seen;
  bool hard = false;
  bool any = false;
  for (const ApiUse *u : uses) {
    const auto it = u->status.find(std::string(target));
    if (it == u->status.end())
      continue;
    any = true;
    const std::string &st = it->second;
    const bool first = seen.insert(u->name).second;
    if (u->kind == "inline-asm") {
      e.hours += 4.0;
      hard = true;
    } else if (u->kind == "kernel") {
      e.hours += 0.25;
    } else if (u->kind == "launch") {
      e.hours += 0.02;
    } else if (u->kind == "warp-intrinsic") {
      e.hours += 0.25;
    } else if (st == "unsupported") {
      e.hours += first ? 2.0 : 0.25;
      hard = true;
    } else if (st == "changed") {
      e.hours += first ? 0.5 : 0.1;
    } else if (st == "unknown") {
      e.hours += first ? 0.5 : 0.05;
    } else if (st == "deprecated") {
      e.hours += 0.1;
    }
  }
  if (any && parsed_source)
    e.hours += 0.1; // build, compile and test the ported file
  if (!any)
    return e;
  e.level = e.hours >= 8 ? "high" : (hard || e.hours >= 2) ? "medium" : "low";
  return e;
}

std::string overall_level(double hours) {
  if (hours <= 0)
    return "none";
  return hours < 16 ? "low" : hours < 80 ? "medium" : "high";
}

Inventory scan_project(const fs::path &path, const ScanOptions &options) {
  const auto t0 = std::chrono::steady_clock::now();
  Inventory inv;
  inv.root = path.string();

  // Targets first: bad options are the caller's error, not the input's.
  std::vector<std::unique_ptr<targets::Target>> owned;
  if (options.targets.empty()) {
    for (const targets::TargetInfo *info : targets::list_targets())
      if (info->source_dialect == options.from)
        owned.push_back(info->make(options.target_options));
    if (owned.empty())
      throw std::invalid_argument("no registered target migrates from '" +
                                  options.from + "'");
  } else {
    for (const std::string &name : options.targets) {
      auto t = targets::make_target(name, options.target_options);
      if (t->source_dialect() != options.from)
        throw std::invalid_argument(
            "target '" + name + "' migrates from " +
            std::string(t->source_dialect()) + ", not from '" + options.from +
            "' (use --from " + std::string(t->source_dialect()) + ")");
      owned.push_back(std::move(t));
    }
  }
  std::vector<const targets::Target *> tgts;
  for (const auto &t : owned) {
    tgts.push_back(t.get());
    inv.targets.emplace_back(t->name());
  }
  // The lexer's offsets are 32-bit: never hand it 4 GiB or more.
  const std::uintmax_t max_size =
      std::min<std::uintmax_t>(options.max_file_size, (4ull << 30) - 1);

  // ---- the files to look at ----
  std::vector<ProjectFile> files;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    const fs::file_status lst = fs::symlink_status(path, ec);
    const bool dangling = fs::is_symlink(lst);
    inv.problems.push_back(
        {dangling ? Diag::Unreadable : Diag::PathMissing, Severity::Error, path.string(), 0, 0,
         dangling ? "broken symbolic link (or a link loop): nothing to scan"
                  : "no such file or directory",
         "pass an existing file or project folder"});
    inv.fatal = true;
  } else if (fs::is_directory(st)) {
    try {
      WalkOptions wo;
      wo.max_file_size = max_size;
      Walk walk = walk_tree(path, wo);
      files = std::move(walk.files);
      for (auto &d : walk.problems)
        inv.problems.push_back(std::move(d));
    } catch (const std::exception &e) {
      inv.problems.push_back(
          {Diag::Unreadable, Severity::Error, path.string(), 0, 0,
           std::string("cannot walk the folder: ") + e.what(),
           "check the permissions"});
      inv.fatal = true;
    }
  } else if (fs::is_regular_file(st)) {
    inv.single_file = true;
    const fs::path name = path.filename();
    files.push_back(
        {name.generic_string(), path, classify(name), fs::file_size(path, ec)});
  } else {
    inv.problems.push_back(
        {Diag::Unreadable, Severity::Error, path.string(), 0, 0,
         "not a regular file or folder (a FIFO, socket or device): not read",
         "pass a source file or a project folder"});
    inv.fatal = true;
  }

  // Nested Ferry outputs and CMake build folders are generated, not the user's
  // source.
  if (!inv.single_file && !files.empty()) {
    std::set<std::string> generated;
    std::set<std::string> dirs;
    for (const ProjectFile &f : files) {
      const fs::path rel(f.rel);
      if (rel.filename() == "CMakeCache.txt" && rel.has_parent_path())
        generated.insert(rel.parent_path().generic_string());
      for (fs::path d = rel.parent_path(); !d.empty(); d = d.parent_path()) {
        if (!dirs.insert(d.generic_string()).second)
          break;
      }
    }
    for (const std::string &d : dirs)
      if (fs::exists(path / d / ".ferry" / "manifest.json", ec))
        generated.insert(d);
    // Keep only outermost folders.
    std::vector<std::string> outer;
    for (const std::string &d : generated)
      if (outer.empty() || !starts(d, outer.back() + "/"))
        outer.push_back(d);
    for (const std::string &d : outer) {
      const bool ferry = fs::exists(path / d / ".ferry" / "manifest.json", ec);
      inv.problems.push_back(
          {Diag::GeneratedInsideInput, Severity::Note, d, 0, 0,
           std::string(ferry ? "Ferry output folder" : "CMake build folder") +
               " inside the input: skipped",
           ferry ? "keep migration outputs outside the input tree (ferry "
                   "migrate refuses "
                   "to write inside it)"
                 : "build out of the source tree, or scan the source folder "
                   "only"});
    }
    std::erase_if(files, [&](const ProjectFile &f) {
      return std::any_of(outer.begin(), outer.end(), [&](const std::string &d) {
        return starts(f.rel, d + "/");
      });
    });
  }

  // ---- parallel scan ----
  std::vector<FileScan> scans(files.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= files.size())
        return;
      const ProjectFile &pf = files[i];
      FileScan &out = scans[i];
      // Reported when this iteration ends, whichever way it ends.
      const std::unique_ptr<const ProjectFile, std::function<void(const ProjectFile *)>> tick(
          &pf, [&options](const ProjectFile *f) {
            if (options.on_file_done)
              options.on_file_done(f->size);
          });
      out.file.rel = pf.rel;
      out.file.kind = is_bazel_name(pf.rel) ? "bazel" : kind_name(pf.kind);
      out.file.size = pf.size;
      if (!parsed_kind(out.file.kind))
        continue;
      try {
        TextRead read = read_source(pf.abs, pf.rel, max_size);
        out.problems = std::move(read.problems);
        if (!read.text)
          continue;
        scan_into(pf.rel, out.file.kind, *read.text, tgts, out);
      } catch (const std::exception &e) {
        out.problems.push_back({Diag::Unreadable, Severity::Error, pf.rel, 0, 0,
                                std::string("cannot scan: ") + e.what(),
                                "check that the file is readable"});
      }
    }
  };
  const unsigned jobs = std::max(
      1u, std::min<unsigned>(
              options.jobs,
              static_cast<unsigned>(std::max<std::size_t>(1, files.size()))));
  if (options.on_start) {
    std::uintmax_t bytes = 0;
    for (const ProjectFile &f : files)
      bytes += f.size;
    options.on_start(files.size(), bytes);
  }
  {
    std::vector<std::jthread> pool;
    for (unsigned j = 1; j < jobs; ++j)
      pool.emplace_back(worker);
    worker();
  }
  if (inv.single_file && !scans.empty() && !scans.front().file.parsed &&
      !scans.front().problems.empty())
    for (const Diagnostic &d : scans.front().problems)
      inv.fatal = inv.fatal || d.code == Diag::Unreadable;

  // ---- aggregate ----
  std::set<std::string>
      project_macros; // names the project #defines: the user's, not CUDA's
  for (const FileScan &s : scans)
    project_macros.insert(s.defined_macros.begin(), s.defined_macros.end());
  for (FileScan &s : scans) {
    for (auto &d : s.problems)
      inv.problems.push_back(std::move(d));
    for (auto &b : s.builds)
      inv.build_systems.push_back(std::move(b));
    std::vector<const ApiUse *> mine;
    const std::size_t first = inv.uses.size();
    for (std::size_t i = 0; i < s.uses.size(); ++i) {
      if (s.guessed[i] && project_macros.contains(s.uses[i].name))
        continue;
      inv.uses.push_back(std::move(s.uses[i]));
    }
    std::stable_sort(inv.uses.begin() + static_cast<std::ptrdiff_t>(first),
                     inv.uses.end(), [](const ApiUse &a, const ApiUse &b) {
                       return std::tie(a.line, a.col) < std::tie(b.line, b.col);
                     });
    FileInventory &f = s.file;
    for (std::size_t i = first; i < inv.uses.size(); ++i) {
      const ApiUse &u = inv.uses[i];
      mine.push_back(&u);
      ++f.uses;
      f.kernels += u.kind == "kernel";
      f.launches += u.kind == "launch";
      f.warp_intrinsics += u.kind == "warp-intrinsic";
      f.inline_asm += u.kind == "inline-asm";
      for (const auto &[t, status] : u.status)
        ++f.status_counts[t][status];
    }
    const bool source = f.parsed && f.kind != "python" && f.kind != "cmake" &&
                        f.kind != "makefile" && f.kind != "bazel";
    for (const std::string &t : inv.targets) {
      f.effort[t] = file_effort(mine, t, source);
      inv.effort[t].hours += f.effort[t].hours;
    }
    ++inv.kind_counts[f.kind];
    inv.bytes += f.size;
    inv.files.push_back(std::move(f));
  }
  // Build systems cost their own port (docs/scan.md): CMake 2 h, Make 1 h,
  // setuptools 0.5 h, Bazel 4 h.
  std::set<std::pair<std::string, std::string>> build_files;
  for (const BuildSystem &b : inv.build_systems)
    build_files.insert({b.id, b.file});
  for (const auto &[id, file] : build_files) {
    const double h = id == "cmake"        ? 2.0
                     : id == "make"       ? 1.0
                     : id == "setuptools" ? 0.5
                                          : 4.0;
    for (const std::string &t : inv.targets)
      inv.effort[t].hours += h;
  }
  for (const std::string &t : inv.targets)
    inv.effort[t].level = overall_level(inv.effort[t].hours);

  std::map<std::string, LibraryUse> libs;
  for (const ApiUse &u : inv.uses) {
    if (u.library.empty())
      continue;
    LibraryUse &l = libs[u.library];
    if (l.id.empty()) {
      l.id = u.library;
      const LibraryInfo *info = library_info(u.library);
      l.name = info ? std::string(info->name) : u.library;
      l.category = info ? std::string(info->category) : "gpu-library";
      l.first =
          u.file + ":" + std::to_string(u.line) + ":" + std::to_string(u.col);
    }
    ++l.uses;
    if (l.files.empty() || l.files.back() != u.file)
      l.files.push_back(u.file);
  }
  for (auto &[id, l] : libs) {
    std::sort(l.files.begin(), l.files.end());
    l.files.erase(std::unique(l.files.begin(), l.files.end()), l.files.end());
    inv.libraries.push_back(std::move(l));
  }
  std::stable_sort(
      inv.libraries.begin(), inv.libraries.end(),
      [](const LibraryUse &a, const LibraryUse &b) { return a.uses > b.uses; });
  sort_diagnostics(inv.problems);
  inv.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  return inv;
}

// ----- rendering
// -------------------------------------------------------------------------------

nlohmann::json inventory_to_json(const Inventory &inv) {
  using nlohmann::json;
  json j;
  j["tool"] = "ferry";
  j["command"] = "scan";
  j["schema_version"] = 1;
  j["root"] = inv.root;
  j["single_file"] = inv.single_file;
  j["targets"] = inv.targets;
  std::size_t parsed = 0, lines = 0, kernels = 0, launches = 0, warp = 0,
              asm_ = 0;
  json files = json::array();
  for (const FileInventory &f : inv.files) {
    parsed += f.parsed;
    lines += f.lines;
    kernels += f.kernels;
    launches += f.launches;
    warp += f.warp_intrinsics;
    asm_ += f.inline_asm;
    json effort = json::object();
    for (const auto &[t, e] : f.effort)
      effort[t] = {{"hours", e.hours}, {"level", e.level}};
    files.push_back({{"path", f.rel},
                     {"kind", f.kind},
                     {"size", f.size},
                     {"lines", f.lines},
                     {"parsed", f.parsed},
                     {"uses", f.uses},
                     {"kernels", f.kernels},
                     {"launches", f.launches},
                     {"warp_intrinsics", f.warp_intrinsics},
                     {"inline_asm", f.inline_asm},
                     {"status", f.status_counts},
                     {"effort", effort}});
  }
  std::map<std::string, std::map<std::string, std::size_t>> status;
  for (const FileInventory &f : inv.files)
    for (const auto &[t, m] : f.status_counts)
      for (const auto &[s, n] : m)
        status[t][s] += n;
  j["summary"] = {
      {"files", inv.files.size()}, {"parsed_files", parsed},
      {"bytes", inv.bytes},        {"lines", lines},
      {"uses", inv.uses.size()},   {"kernels", kernels},
      {"launches", launches},      {"warp_intrinsics", warp},
      {"inline_asm", asm_},        {"problems", inv.problems.size()},
      {"seconds", inv.seconds}};
  j["kinds"] = inv.kind_counts;
  json builds = json::array();
  for (const BuildSystem &b : inv.build_systems)
    builds.push_back({{"id", b.id},
                      {"detail", b.detail},
                      {"file", b.file},
                      {"line", b.line},
                      {"col", b.col}});
  j["build_systems"] = builds;
  json libs = json::array();
  for (const LibraryUse &l : inv.libraries)
    libs.push_back({{"id", l.id},
                    {"name", l.name},
                    {"category", l.category},
                    {"uses", l.uses},
                    {"files", l.files},
                    {"first", l.first}});
  j["libraries"] = libs;
  j["status"] = status;
  json effort = json::object();
  for (const auto &[t, e] : inv.effort)
    effort[t] = {{"hours", e.hours}, {"level", e.level}};
  j["effort"] = effort;
  j["files"] = files;
  json uses = json::array();
  for (const ApiUse &u : inv.uses) {
    json x{{"file", u.file},       {"line", u.line},     {"col", u.col},
           {"name", u.name},       {"family", u.family}, {"kind", u.kind},
           {"library", u.library}, {"status", u.status}};
    if (!u.note.empty())
      x["note"] = u.note;
    uses.push_back(std::move(x));
  }
  j["uses"] = uses;
  j["problems"] = report::to_json(inv.problems);
  return j;
}

std::string inventory_summary(const Inventory &inv, bool list_uses) {
  std::ostringstream o;
  if (list_uses) {
    for (const ApiUse &u : inv.uses) {
      o << u.file << ":" << u.line << ":" << u.col << ": " << u.kind << " "
        << u.name << " [" << u.family;
      for (const auto &[t, s] : u.status)
        o << ", " << t << ": " << s;
      o << "]\n";
    }
    o << "\n";
  }
  std::size_t parsed = 0, lines = 0, kernels = 0, launches = 0, warp = 0,
              asm_ = 0;
  for (const FileInventory &f : inv.files) {
    parsed += f.parsed;
    lines += f.lines;
    kernels += f.kernels;
    launches += f.launches;
    warp += f.warp_intrinsics;
    asm_ += f.inline_asm;
  }
  o << fmt::format("ferry scan: {} — {} files ({} parsed), {} lines, {:.1f} "
                   "KiB in {:.3f} s\n",
                   inv.root, inv.files.size(), parsed, lines,
                   static_cast<double>(inv.bytes) / 1024.0, inv.seconds);
  o << "\nFile kinds:\n";
  for (const auto &[k, n] : inv.kind_counts)
    o << fmt::format("  {:<14}{:>6}\n", k, n);
  o << "\nBuild systems:\n";
  if (inv.build_systems.empty())
    o << "  (none with GPU settings found)\n";
  for (const BuildSystem &b : inv.build_systems)
    o << fmt::format("  {:<11}{:<44}{}:{}:{}\n", b.id, b.detail, b.file, b.line,
                     b.col);
  o << "\nGPU libraries and frameworks:\n";
  if (inv.libraries.empty())
    o << "  (none found)\n";
  for (const LibraryUse &l : inv.libraries)
    o << fmt::format("  {:<48}{:>6} uses in {:>3} files  (first: {})\n", l.name,
                     l.uses, l.files.size(), l.first);
  o << fmt::format("\nGPU API uses: {}  (kernels {}, launches {}, warp "
                   "intrinsics {}, inline asm {})\n",
                   inv.uses.size(), kernels, launches, warp, asm_);
  std::map<std::string, std::map<std::string, std::size_t>> status;
  for (const FileInventory &f : inv.files)
    for (const auto &[t, m] : f.status_counts)
      for (const auto &[s, n] : m)
        status[t][s] += n;
  o << fmt::format("  {:<10}{:>10}{:>10}{:>12}{:>10}{:>10}\n", "target",
                   "supported", "changed", "deprecated", "unsupp.", "unknown");
  for (const std::string &t : inv.targets) {
    auto &m = status[t];
    o << fmt::format("  {:<10}{:>10}{:>10}{:>12}{:>10}{:>10}\n", t,
                     m["supported"], m["changed"], m["deprecated"],
                     m["unsupported"], m["unknown"]);
  }
  if (!inv.targets.empty()) {
    const std::string &t = inv.targets.front();
    o << fmt::format("\nPer file (effort for {}):\n", t);
    o << fmt::format("  {:<40}{:<12}{:>6}{:>6}{:>6}{:>5}{:>8}{:>8}  {}\n",
                     "file", "kind", "uses", "kern", "warp", "asm", "unsupp",
                     "hours", "effort");
    for (const FileInventory &f : inv.files) {
      if (f.uses == 0)
        continue;
      const auto sc = f.status_counts.find(t);
      std::size_t unsup = 0;
      if (sc != f.status_counts.end())
        if (auto it = sc->second.find("unsupported"); it != sc->second.end())
          unsup = it->second;
      const Effort e = f.effort.count(t) ? f.effort.at(t) : Effort{};
      o << fmt::format("  {:<40}{:<12}{:>6}{:>6}{:>6}{:>5}{:>8}{:>8.1f}  {}\n",
                       f.rel, f.kind, f.uses, f.kernels, f.warp_intrinsics,
                       f.inline_asm, unsup, e.hours, e.level);
    }
  }
  o << "\nMigration effort:";
  for (const std::string &t : inv.targets) {
    const Effort e = inv.effort.count(t) ? inv.effort.at(t) : Effort{};
    o << fmt::format("  {}: {} ({:.1f} h)", t, e.level, e.hours);
  }
  o << "\n";
  if (!inv.problems.empty())
    o << fmt::format("Input problems: {} (listed above)\n",
                     inv.problems.size());
  return o.str();
}

} // namespace ferry::project
