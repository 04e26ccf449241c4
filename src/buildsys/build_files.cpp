#include "buildsys/build_files.h"

#include "buildsys/cmake_syntax.h"
#include "buildsys/make_syntax.h"
#include "buildsys/roundtrip_record.h"
#include "buildsys/text_edits.h"
#include "rules/libraries.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace ferry::buildsys {
namespace {

// Codes (docs/diagnostics.md): FRY5001 flag/option mapped, FRY5002 nvcc-only flag dropped,
// FRY5003 build file migrated to the HIP toolchain (summary note), FRY5004 left for review,
// FRY5005 setup.py CUDAExtension explained.
Diagnostic diag(Diag code, const std::string& rel, std::uint32_t line, std::string msg, std::string hint) {
  return {code, info(code).severity, rel, line, 0, std::move(msg), std::move(hint)};
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// CUDA libraries: what each becomes on HIP (-l name, CMake target, the package that provides it),
// from the library table scan shares (rules/libraries.h). Only libraries with a HIP -l name.
using Lib = rules::CudaLibrary;
const Lib* find_lib(std::string_view cuda) {
  const Lib* l = rules::library_of_link(cuda);
  return l && !l->hip_link.empty() ? l : nullptr;
}

std::string arch_note(std::string_view from, const Options& o) {
  return std::string(from) + " -> --offload-arch=" + o.arch + " (the chosen profile; --arch picks another)";
}

}  // namespace

std::vector<std::string> map_nvcc_words(const std::vector<std::string>& w, const Options& o, const std::string& rel,
                                        std::uint32_t line, std::vector<Diagnostic>& diags) {
  std::vector<std::string> out(w.begin(), w.end());
  bool arch_done = false;
  auto drop = [&](std::size_t i, std::size_t n, const std::string& why) {
    std::string what;
    for (std::size_t k = i; k < i + n && k < w.size(); ++k) {
      what += (k > i ? " " : "") + w[k];
      out[k].clear();
    }
    diags.push_back(diag(Diag::BuildNvccFlagDropped, rel, line, "nvcc-only flag '" + what + "' dropped: " + why,
                         "check whether the HIP build needs an equivalent"));
  };
  auto map = [&](std::size_t i, std::string to) {
    diags.push_back(diag(Diag::BuildMapped, rel, line, "'" + w[i] + "' -> '" + to + "'", ""));
    out[i] = std::move(to);
  };
  auto arch = [&](std::size_t i, std::size_t n) {
    std::string what;
    for (std::size_t k = i; k < i + n && k < w.size(); ++k) {
      what += (k > i ? " " : "") + w[k];
      out[k].clear();
    }
    if (!arch_done) out[i] = "--offload-arch=" + o.arch;
    diags.push_back(diag(Diag::BuildMapped, rel, line,
                         arch_done ? "'" + what + "' dropped (architecture already given)" : arch_note(what, o), ""));
    arch_done = true;
  };
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& s = w[i];
    const bool has_next = i + 1 < w.size();
    if (s == "nvcc" || (s.size() > 5 && s.ends_with("/nvcc"))) {
      map(i, "hipcc");
    } else if (starts_with(s, "-arch=") || starts_with(s, "--gpu-architecture=") || starts_with(s, "-gencode=") ||
               starts_with(s, "--generate-code=")) {
      arch(i, 1);
    } else if ((s == "-arch" || s == "--gpu-architecture" || s == "-gencode" || s == "--generate-code") && has_next) {
      arch(i, 2);
      ++i;
    } else if (starts_with(s, "-code=") || starts_with(s, "--gpu-code=")) {
      out[i].clear();
    } else if (starts_with(s, "-l") && find_lib(s.substr(2))) {
      map(i, "-l" + std::string(find_lib(s.substr(2))->hip_link));
    } else if (s == "-x" && has_next && w[i + 1] == "cu") {
      map(i + 1, "hip");
      ++i;
    } else if ((s == "-Xcompiler" || s == "--compiler-options") && has_next) {
      std::string host = w[i + 1];
      std::replace(host.begin(), host.end(), ',', ' ');
      out[i].clear();
      out[i + 1] = host;
      diags.push_back(diag(Diag::BuildMapped, rel, line,
                           "'" + s + " " + w[i + 1] + "' -> '" + host + "' (hipcc passes host flags directly)", ""));
      ++i;
    } else if (starts_with(s, "-Xcompiler=") || starts_with(s, "--compiler-options=")) {
      std::string host = s.substr(s.find('=') + 1);
      std::replace(host.begin(), host.end(), ',', ' ');
      map(i, host);
    } else if (s == "--expt-relaxed-constexpr" || s == "-expt-relaxed-constexpr") {
      drop(i, 1, "clang allows constexpr calls across host and device by default");
    } else if (s == "--expt-extended-lambda" || s == "--extended-lambda" || s == "-extended-lambda") {
      drop(i, 1, "clang supports __device__ lambdas without a flag");
    } else if (s == "-lineinfo" || s == "--generate-line-info") {
      map(i, "-gline-tables-only");
    } else if (s == "--use_fast_math" || s == "-use_fast_math" || s == "--use-fast-math") {
      map(i, "-ffast-math");
    } else if (s == "-rdc=true" || s == "--relocatable-device-code=true" || s == "-rdc") {
      map(i, "-fgpu-rdc");
    } else if (s == "-dc") {
      map(i, "-fgpu-rdc -c");
    } else if ((s == "-Xptxas" || s == "-Xcudafe" || s == "-Xnvlink" || s == "-ccbin" || s == "--compiler-bindir" ||
                s == "-maxrregcount") &&
               has_next) {
      drop(i, 2, "no hipcc equivalent");
      ++i;
    } else if (starts_with(s, "-Xptxas=") || starts_with(s, "--ptxas-options=") || starts_with(s, "-maxrregcount=") ||
               starts_with(s, "-ccbin=") || s == "-res-usage" || s == "--resource-usage" || s == "-keep" ||
               s == "--keep" || s == "-G" || s == "--device-debug" || starts_with(s, "-Wno-deprecated-gpu-targets") ||
               s == "--cudart=shared" || s == "--cudart=static" || s == "-cudart=shared" || s == "-cudart=static") {
      drop(i, 1, "no hipcc equivalent");
    } else if (s == "--default-stream" && has_next && w[i + 1] == "per-thread") {
      map(i, "-fgpu-default-stream=per-thread");
      out[i + 1].clear();
      ++i;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Makefiles: logical lines (backslash continuations joined), comments split off, words mapped.
// Recipe lines (starting with a tab) are shell: '#' there belongs to the shell, words are mapped
// the same way. Everything that is not a word (spacing, continuations, comments) is kept.
// ------------------------------------------------------------------------------------------
Result migrate_makefile(const std::string& rel, std::string_view text, const Options& o,
                        const std::vector<std::pair<std::size_t, std::size_t>>& verbatim) {
  Result r;
  auto kept = [&](std::size_t at) {
    for (const auto& [b, e] : verbatim)
      if (at >= b && at < e) return true;
    return false;
  };
  // A runtime switch the file has a HIP branch for (`ifeq ($(GPU_RUNTIME), HIP)`, rocm-examples):
  // `GPU_RUNTIME := CUDA`, as HIP -> CUDA left it, selects the HIP branch again.
  std::set<std::string> hip_selectors;
  for (const make::LogicalLine& l : make::logical_lines(text)) {
    const std::string_view code = std::string_view(l.text).substr(0, l.code_end);
    for (std::string_view kw : {"ifeq (", "ifneq ("}) {
      const std::size_t at = code.find(kw);
      if (at == std::string_view::npos) continue;
      const std::size_t comma = code.find(',', at + kw.size());
      if (comma == std::string_view::npos || code.rfind(')') < comma) continue;
      auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
        return v;
      };
      const std::string_view a = trim(code.substr(at + kw.size(), comma - at - kw.size()));
      // the variable reference and the value, in either order: ($(V), HIP) or (HIP, $(V))
      const std::string_view b = trim(code.substr(comma + 1, code.rfind(')') - comma - 1));
      for (auto [ref, val] : {std::pair{a, b}, std::pair{b, a}})
        if (ref.size() > 3 && ref.starts_with("$(") && ref.ends_with(")") && (val == "HIP" || val == "hip"))
          hip_selectors.insert(std::string(ref.substr(2, ref.size() - 3)));
    }
  }
  const std::vector<make::LogicalLine> lines = make::logical_lines(text);
  // The branches of a runtime switch are the authors' own builds: left as written (the selector flips).
  const std::vector<bool> in_switch = make::runtime_switch_lines(lines);
  for (std::size_t li = 0; li < lines.size(); ++li) {
    const make::LogicalLine& l = lines[li];
    if (l.verbatim || kept(l.begin) || in_switch[li]) {
      r.output += l.text;
      continue;
    }
    // A file with its own HIP branch builds for HIP as it is: only the selector flips (below);
    // what the CUDA branch uses (`CUDACXX ?= $(CUDA_INSTALL_DIR)/bin/nvcc`) stays.
    if (!hip_selectors.empty()) {
      const make::Words sw = make::split_words(l.text.substr(0, l.code_end));
      if (sw.words.empty() || !hip_selectors.contains(sw.words[0])) {
        r.output += l.text;
        continue;
      }
    }
    const make::Words w = make::split_words(l.text.substr(0, l.code_end));
    // An assignment written without blanks is one word, `NVCC=nvcc`, `CU:=/usr/local/cuda/bin/nvcc`:
    // its value is mapped, the name and operator stay.
    std::vector<std::string> words = w.words;
    std::string assigned;  // "NAME=" of the first word, when it is such an assignment
    if (!words.empty()) {
      const std::string& first = words[0];
      std::size_t n = 0;
      while (n < first.size() && (std::isalnum(static_cast<unsigned char>(first[n])) || first[n] == '_')) ++n;
      for (std::string_view op : {"::=", ":=", "+=", "?=", "!=", "="})
        if (n > 0 && first.compare(n, op.size(), op) == 0 && first.size() > n + op.size()) {
          assigned = first.substr(0, n + op.size());
          words[0] = first.substr(assigned.size());
          break;
        }
    }
    std::vector<std::string> mapped = map_nvcc_words(words, o, rel, l.line, r.diagnostics);
    // A variable holding the compiler: NVCC ?= $(CUDA_HOME)/bin/nvcc.
    for (std::size_t i = 0; i < words.size(); ++i)
      if (mapped[i] == words[i] && words[i].ends_with("/bin/nvcc")) {
        mapped[i] = "hipcc";
        r.diagnostics.push_back(diag(Diag::BuildMapped, rel, l.line, "'" + words[i] + "' -> 'hipcc'", ""));
      }
    if (!assigned.empty()) mapped[0] = mapped[0].empty() ? assigned : assigned + mapped[0];
    // `GPU_RUNTIME := CUDA` of a switch with a HIP branch (hip_selectors)
    if (w.words.size() == 3 && hip_selectors.contains(w.words[0]) &&
        (w.words[1] == ":=" || w.words[1] == "=" || w.words[1] == "?=") &&
        (w.words[2] == "CUDA" || w.words[2] == "cuda")) {
      mapped[2] = w.words[2] == "CUDA" ? "HIP" : "hip";
      r.diagnostics.push_back(
          diag(Diag::BuildMapped, rel, l.line,
               w.words[0] + " = " + w.words[2] + " -> " + mapped[2] + " (the file's own HIP branch is selected)", ""));
    }
    r.output += make::join_words(w, mapped);
    r.output += l.text.substr(l.code_end);
  }
  if (!r.diagnostics.empty())
    r.diagnostics.push_back(diag(Diag::BuildMovedToolchain, rel, 0, "Makefile moved to hipcc and HIP libraries",
                                 "build it with make; hipcc is at /usr/bin/hipcc on Debian"));
  return r;
}

namespace {

using Edit = TextEdit;

// Variable names renamed wherever they appear as a name (set(X ...), ${X}, if(DEFINED X)).
const std::map<std::string, std::string>& cmake_var_renames() {
  static const std::map<std::string, std::string> m = {
      {"CMAKE_CUDA_ARCHITECTURES", "GPU_TARGETS"},
      {"CMAKE_CUDA_STANDARD", "CMAKE_CXX_STANDARD"},
      {"CMAKE_CUDA_STANDARD_REQUIRED", "CMAKE_CXX_STANDARD_REQUIRED"},
      {"CMAKE_CUDA_EXTENSIONS", "CMAKE_CXX_EXTENSIONS"},
      {"CMAKE_CUDA_FLAGS", "CMAKE_CXX_FLAGS"},
      {"CMAKE_CUDA_FLAGS_RELEASE", "CMAKE_CXX_FLAGS_RELEASE"},
      {"CMAKE_CUDA_FLAGS_DEBUG", "CMAKE_CXX_FLAGS_DEBUG"},
  };
  return m;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string rename_vars(std::string text) {
  for (const auto& [from, to] : cmake_var_renames()) {
    std::size_t p = 0;
    while ((p = text.find(from, p)) != std::string::npos) {
      const bool left = p == 0 || !is_ident(text[p - 1]);
      const bool right = p + from.size() >= text.size() || !is_ident(text[p + from.size()]);
      if (left && right) {
        text.replace(p, from.size(), to);
        p += to.size();
      } else {
        p += from.size();
      }
    }
  }
  return text;
}

// Splits a flag list ("-O2 -lineinfo", or a;b;c) into words, maps them, joins with `sep`.
std::string map_flag_text(const std::string& text, char sep, const Options& o, const std::string& rel,
                          std::uint32_t line, std::vector<Diagnostic>& diags) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text) {
    if (c == sep || (sep == ' ' && c == '\t')) {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  const auto mapped = map_nvcc_words(words, o, rel, line, diags);
  if (mapped == words) return text;  // nothing to map: the text keeps its own spacing
  std::string out;
  for (const auto& m : mapped)
    if (!m.empty()) out += (out.empty() ? "" : std::string(1, sep)) + m;
  return out;
}

bool is_flag_command(const std::string& n) {
  return n == "target_compile_options" || n == "add_compile_options" || n == "target_link_options" ||
         n == "add_link_options" || n == "add_definitions";
}

}  // namespace

Result migrate_cmake(const std::string& rel, std::string_view text, const Options& o,
                     const std::vector<std::pair<std::size_t, std::size_t>>& verbatim) {
  Result r;
  std::vector<CMakeCommand> cmds;
  try {
    cmds = parse_cmake(text);
  } catch (const std::exception& e) {
    r.output = std::string(text);
    r.diagnostics.push_back(diag(Diag::BuildLeftForReview, rel, 0,
                                 std::string("cannot tokenize this CMake file (") + e.what() + "): copied unchanged",
                                 "fix the syntax, or migrate the file by hand"));
    return r;
  }
  auto arg_is = [](const CMakeArg& a, std::string_view v) { return !a.quoted && !a.bracket && a.text == v; };
  auto unq = [](const CMakeArg& a) { return a.quoted ? a.text.substr(1, a.text.size() - 2) : a.text; };

  // What the file uses.
  bool uses_cuda = false;
  std::set<std::string> packages;                 // hip packages needed besides hip
  std::map<std::string, std::string> link_style;  // target -> "keyword" / "plain"
  for (const auto& c : cmds) {
    if (c.name == "project" || c.name == "enable_language")
      for (const auto& a : c.args) uses_cuda = uses_cuda || arg_is(a, "CUDA");
    if (c.name == "find_package" && !c.args.empty() && (arg_is(c.args[0], "CUDAToolkit") || arg_is(c.args[0], "CUDA")))
      uses_cuda = true;
    if (c.name == "target_link_libraries" && !c.args.empty()) {
      bool kw = false;
      for (const auto& a : c.args) kw = kw || arg_is(a, "PUBLIC") || arg_is(a, "PRIVATE") || arg_is(a, "INTERFACE");
      link_style[c.args[0].text] = kw ? "keyword" : "plain";
    }
    for (const auto& a : c.args) {
      const std::string t = unq(a);
      if (starts_with(t, "CUDA::"))
        if (const Lib* l = find_lib(t.substr(6)); l && !l->hip_package.empty() && l->hip_package != "hip")
          packages.insert(std::string(l->hip_package));
      if (c.name == "find_library")
        if (const Lib* l = find_lib(t); l && !l->hip_package.empty() && l->hip_package != "hip")
          packages.insert(std::string(l->hip_package));
      if (c.name == "target_link_libraries" && &a != &c.args[0])
        if (const Lib* l = find_lib(starts_with(t, "-l") ? t.substr(2) : t);
            l && !l->hip_package.empty() && l->hip_package != "hip")
          packages.insert(std::string(l->hip_package));
    }
  }
  for (const auto& c : cmds)
    for (const auto& a : c.args) uses_cuda = uses_cuda || a.text.ends_with(".cu");
  // A runtime switch the file has a HIP branch for (rocm-examples: `set(GPU_RUNTIME "CUDA" CACHE
  // ...)`, `set(GPU_RUNTIMES "HIP" "CUDA")`, `enable_language(${GPU_RUNTIME})`, as HIP -> CUDA left
  // it): the variable used as a language that is set to CUDA selects HIP, the file's own branch.
  std::vector<TextEdit> selector_edits;
  bool own_switch = false;  // the file selects HIP or CUDA itself: its HIP build is its own
  {
    std::set<std::string> language_vars;
    bool names_hip = false;
    for (const auto& c : cmds)
      for (std::size_t k = 0; k < c.args.size(); ++k) {
        const std::string t = unq(c.args[k]);
        // HIP named as a value, or as a word of a message ("Switches between HIP and CUDA")
        for (std::size_t at = t.find("HIP"); at != std::string::npos && !names_hip; at = t.find("HIP", at + 1))
          names_hip = (at == 0 || !is_ident(t[at - 1])) && (at + 3 >= t.size() || !is_ident(t[at + 3]));
        const bool language_arg = c.name == "enable_language" || (c.name == "project" && k > 0) ||
                                  (k > 0 && arg_is(c.args[k - 1], "LANGUAGE"));
        if (language_arg && t.size() > 3 && starts_with(t, "${") && t.back() == '}')
          language_vars.insert(t.substr(2, t.size() - 3));
      }
    for (const auto& c : cmds)
      own_switch =
          own_switch || (names_hip && c.name == "set" && c.args.size() >= 2 && language_vars.contains(unq(c.args[0])) &&
                         (unq(c.args[1]) == "CUDA" || unq(c.args[1]) == "HIP"));
    for (const auto& c : cmds)
      if (names_hip && c.name == "set" && c.args.size() >= 2 && language_vars.contains(unq(c.args[0])) &&
          unq(c.args[1]) == "CUDA") {
        selector_edits.push_back({c.args[1].begin, c.args[1].end, c.args[1].quoted ? "\"HIP\"" : "HIP"});
        r.diagnostics.push_back(diag(Diag::BuildMapped, rel, c.line,
                                     unq(c.args[0]) + " = CUDA -> HIP (the file's own HIP branch is selected)", ""));
      }
    // and its guard, `if(NOT "${GPU_RUNTIME}" STREQUAL "CUDA") message(FATAL_ERROR ...)`
    for (std::size_t i = 0; names_hip && i + 1 < cmds.size(); ++i) {
      const auto& c = cmds[i];
      if (c.name != "if" || c.args.size() != 4 || !arg_is(c.args[0], "NOT") || !arg_is(c.args[2], "STREQUAL") ||
          unq(c.args[3]) != "CUDA")
        continue;
      bool fatal = false;  // a message(FATAL_ERROR ...) before the if's end (set(ERROR_MESSAGE ...) may come first)
      for (std::size_t j = i + 1; j < cmds.size() && j < i + 4 && cmds[j].name != "endif" && !fatal; ++j)
        fatal = cmds[j].name == "message" && !cmds[j].args.empty() && arg_is(cmds[j].args[0], "FATAL_ERROR");
      if (!fatal) continue;
      std::string v = unq(c.args[1]);
      if (v.size() > 3 && starts_with(v, "${") && v.back() == '}') v = v.substr(2, v.size() - 3);
      if (!language_vars.contains(v)) continue;
      selector_edits.push_back({c.args[3].begin, c.args[3].end, c.args[3].quoted ? "\"HIP\"" : "HIP"});
      r.diagnostics.push_back(diag(Diag::BuildMapped, rel, c.line,
                                   "the guard that " + v + " is CUDA asks for HIP (the sources are HIP)", ""));
    }
  }
  // Already on HIP (a migrated file migrated again, or a HIP project): nothing to do. A file finds
  // the hip package, or -- a subdirectory's file, whose parent finds it -- links HIP's own targets.
  for (const auto& c : cmds) {
    const bool finds_hip = c.name == "find_package" && !c.args.empty() && arg_is(c.args[0], "hip");
    const bool links_hip =
        c.name == "target_link_libraries" && std::any_of(c.args.begin(), c.args.end(), [&](const CMakeArg& a) {
          return arg_is(a, "hip::device") || arg_is(a, "hip::host");
        });
    if (finds_hip || links_hip || own_switch) {  // (but for a runtime switch left on CUDA)
      r.output = selector_edits.empty() ? std::string(text) : apply_text_edits(text, std::move(selector_edits));
      return r;
    }
  }

  std::vector<Edit> edits = std::move(selector_edits);
  auto note = [&](std::uint32_t line, std::string msg) {
    r.diagnostics.push_back(diag(Diag::BuildMapped, rel, line, std::move(msg), ""));
  };
  const std::string find_pkgs = [&] {
    std::string s = "find_package(hip REQUIRED)\n";
    for (const auto& p : packages) s += "find_package(" + p + " REQUIRED)\n";
    return s;
  }();
  bool hip_found = false;
  for (const auto& c : cmds) {
    const std::string line_comment = "# ferry: ";
    if (c.name == "project" && uses_cuda) {
      bool has_cxx = false;
      for (const auto& a : c.args) has_cxx = has_cxx || arg_is(a, "CXX");
      for (const auto& a : c.args)
        if (arg_is(a, "CUDA")) {
          std::size_t b = a.begin;
          if (has_cxx)
            while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
          edits.push_back({b, a.end, has_cxx ? "" : "CXX"});
        }
      std::size_t line_start = c.begin;
      while (line_start > 0 && text[line_start - 1] != '\n') --line_start;
      edits.push_back(
          {line_start, line_start,
           "# ferry: the HIP toolchain: hipcc compiles the C++ and the .cu sources (as HIP);\n"
           "# GPU_TARGETS lists the AMD architectures (-DGPU_TARGETS=gfx90a;... to change).\n"
           "if(NOT DEFINED CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})\n"
           "  set(CMAKE_CXX_COMPILER hipcc)\n"
           "endif()\n"
           "set(GPU_TARGETS \"" +
               o.arch +
               "\" CACHE STRING \"AMD GPU architectures to compile for\")\n"
               "set(AMDGPU_TARGETS \"${GPU_TARGETS}\" CACHE STRING \"AMD GPU architectures to compile for\")\n"});
      std::size_t after = c.end;
      while (after < text.size() && text[after] != '\n') ++after;
      edits.push_back({after < text.size() ? after + 1 : after, after < text.size() ? after + 1 : after,
                       (after < text.size() ? "" : "\n") + find_pkgs});
      hip_found = true;
      note(c.line, "project languages: CUDA -> CXX compiled by hipcc, find_package(hip) added");
      continue;
    }
    if (c.name == "enable_language" && uses_cuda && !c.args.empty() && arg_is(c.args[0], "CUDA")) {
      edits.push_back({c.begin, c.end, line_comment + "enable_language(CUDA) removed: hipcc compiles .cu as C++/HIP"});
      continue;
    }
    if (c.name == "find_package" && !c.args.empty() &&
        (arg_is(c.args[0], "CUDAToolkit") || arg_is(c.args[0], "CUDA"))) {
      if (hip_found) {
        edits.push_back(
            {c.begin, c.end, line_comment + "find_package(" + c.args[0].text + ") -> find_package(hip) above"});
      } else {
        std::string s = find_pkgs;
        if (!s.empty() && s.back() == '\n') s.pop_back();
        edits.push_back({c.begin, c.end, s});
        hip_found = true;
      }
      note(c.line, "find_package(" + c.args[0].text + ") -> find_package(hip)");
      continue;
    }
    if (c.name == "set" && !c.args.empty() && arg_is(c.args[0], "CMAKE_CUDA_COMPILER")) {
      edits.push_back({c.begin, c.end, line_comment + "set(CMAKE_CUDA_COMPILER ...) removed: hipcc is the compiler"});
      continue;
    }
    if (c.name == "set" && !c.args.empty() && arg_is(c.args[0], "CMAKE_CUDA_ARCHITECTURES")) {
      std::string from;
      for (std::size_t k = 1; k < c.args.size(); ++k) from += (k > 1 ? " " : "") + c.args[k].text;
      edits.push_back({c.begin, c.end,
                       "set(GPU_TARGETS \"" + o.arch +
                           "\" CACHE STRING \"AMD GPU architectures (ferry: was CUDA architectures " + from + ")\")"});
      note(c.line, "CMAKE_CUDA_ARCHITECTURES " + from + " -> GPU_TARGETS " + o.arch);
      continue;
    }
    if ((c.name == "cuda_add_executable" || c.name == "cuda_add_library") && !c.args.empty()) {
      edits.push_back(
          {c.begin, c.begin + c.name.size(), c.name == "cuda_add_executable" ? "add_executable" : "add_library"});
      note(c.line, c.name + " (FindCUDA) -> " + (c.name == "cuda_add_executable" ? "add_executable" : "add_library"));
    }
    if (c.name == "set_target_properties" || c.name == "set_property") {
      // Property names follow PROPERTIES (set_target_properties: name value pairs) or PROPERTY
      // (set_property: one name, then its values).
      std::size_t first = c.args.size(), names = 0, dropped = 0;
      for (std::size_t k = 0; k < c.args.size(); ++k)
        if (arg_is(c.args[k], "PROPERTIES") || arg_is(c.args[k], "PROPERTY")) {
          first = k + 1;
          break;
        }
      std::vector<Edit> drops;
      const bool pairs = c.name == "set_target_properties";
      for (std::size_t k = first; k + 1 < c.args.size(); k += pairs ? 2 : c.args.size()) {
        ++names;
        if (arg_is(c.args[k], "CUDA_ARCHITECTURES") || arg_is(c.args[k], "CUDA_SEPARABLE_COMPILATION") ||
            arg_is(c.args[k], "CUDA_RESOLVE_DEVICE_SYMBOLS")) {
          ++dropped;
          drops.push_back({c.args[k].begin, (pairs ? c.args[k + 1] : c.args.back()).end, ""});
          r.diagnostics.push_back(
              diag(Diag::BuildNvccFlagDropped, rel, c.line, "CUDA target property " + c.args[k].text + " dropped",
                   c.args[k].text == "CUDA_ARCHITECTURES" ? "GPU_TARGETS sets the architectures"
                                                          : "for relocatable device code add -fgpu-rdc"));
        }
      }
      // A command left with no property is a CMake error: it goes as a whole.
      if (dropped > 0 && dropped == names) {
        edits.push_back({c.begin, c.end, line_comment + c.name + "(...) removed: it set only CUDA properties"});
        continue;
      }
      edits.insert(edits.end(), drops.begin(), drops.end());
    }
    // Sources: mark .cu files as C++ (hipcc compiles them as HIP through hip::device's -x hip).
    if ((c.name == "add_executable" || c.name == "add_library" || c.name == "cuda_add_executable" ||
         c.name == "cuda_add_library" || c.name == "target_sources") &&
        c.args.size() > 1) {
      std::vector<std::string> cu;
      bool imported = false;
      for (const auto& a : c.args) {
        imported = imported || arg_is(a, "IMPORTED") || arg_is(a, "ALIAS") || arg_is(a, "INTERFACE");
        if (unq(a).ends_with(".cu")) cu.push_back(a.text);
      }
      if (!cu.empty() && !(imported && c.name != "target_sources")) {
        std::string ins = "\nset_source_files_properties(";
        for (std::size_t k = 0; k < cu.size(); ++k) ins += (k ? " " : "") + cu[k];
        ins += " PROPERTIES LANGUAGE CXX)";
        if (c.name != "target_sources") {
          const std::string& tgt = c.args[0].text;
          const bool lib = c.name.find("library") != std::string::npos;
          const auto st = link_style.find(tgt);
          ins += "\ntarget_link_libraries(" + tgt +
                 (st != link_style.end() && st->second == "plain" ? ""
                  : lib                                           ? " PUBLIC"
                                                                  : " PRIVATE") +
                 " hip::device)";
        }
        edits.push_back({c.end, c.end, ins});
        note(c.line, std::to_string(cu.size()) + " .cu source(s) compiled as HIP by hipcc (LANGUAGE CXX, hip::device)");
      }
    }
    // Arguments: libraries, flags, variable names.
    for (std::size_t k = 0; k < c.args.size(); ++k) {
      const CMakeArg& a = c.args[k];
      if (a.bracket) continue;
      const std::string t = unq(a);
      std::string repl = a.text;
      if (starts_with(t, "CUDA::")) {
        if (const Lib* l = find_lib(t.substr(6))) {
          repl = std::string(l->hip_cmake_target);
        } else {
          r.diagnostics.push_back(diag(Diag::BuildLeftForReview, rel, c.line,
                                       "no HIP target known for " + t + ": left as is",
                                       "link the matching hip/roc library by hand"));
        }
      } else if ((c.name == "target_link_libraries" || c.name == "link_libraries") && k > 0 &&
                 (find_lib(t) || (starts_with(t, "-l") && find_lib(t.substr(2))))) {
        const Lib* l = find_lib(starts_with(t, "-l") ? t.substr(2) : t);
        repl = std::string(starts_with(t, "-l") ? "-l" : "") + std::string(l->hip_link);
      } else if (c.name == "find_library" && k > 0 && find_lib(t)) {
        repl = std::string(find_lib(t)->hip_link);
      } else if (is_flag_command(c.name) ||
                 (c.name == "set" && k > 0 && !c.args.empty() &&
                  (c.args[0].text == "CMAKE_CUDA_FLAGS" || c.args[0].text == "CMAKE_CXX_FLAGS"))) {
        std::string body = t;
        const std::string gx = "$<$<COMPILE_LANGUAGE:CUDA>:";
        if (starts_with(body, gx) && body.ends_with(">")) {
          const std::string flags =
              map_flag_text(body.substr(gx.size(), body.size() - gx.size() - 1), ';', o, rel, c.line, r.diagnostics);
          repl = flags.empty() ? "" : "$<$<COMPILE_LANGUAGE:CXX>:" + flags + ">";
        } else if (!starts_with(body, "$<")) {  // "${CMAKE_CUDA_FLAGS} -rdc=true": ${...} words stay
          repl = map_flag_text(body, a.quoted ? ' ' : ';', o, rel, c.line, r.diagnostics);
          if (a.quoted) repl = "\"" + repl + "\"";
        }
      }
      repl = rename_vars(repl);
      if (repl != a.text) {
        // A dropped argument takes the space before it along.
        std::size_t b = a.begin;
        if (repl.empty())
          while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
        edits.push_back({b, a.end, repl});
      }
    }
  }
  // Lines a HIP -> CUDA record gave back are HIP's own, and the branches of a runtime switch the
  // authors' own builds (`if(GPU_RUNTIME STREQUAL "CUDA")`): no edit touches them.
  std::vector<std::pair<std::size_t, std::size_t>> kept = verbatim;
  const std::vector<bool> in_switch = runtime_switch_commands(cmds);
  for (std::size_t i = 0; i < cmds.size(); ++i)
    if (in_switch[i]) kept.emplace_back(cmds[i].begin, cmds[i].end);
  std::erase_if(edits, [&](const Edit& e) {
    for (const auto& [b, en] : kept)
      if ((e.begin >= b && e.begin < en) || (e.end > b && e.end <= en)) return true;
    return false;
  });
  if (edits.empty()) {
    r.output = std::string(text);
    return r;
  }
  r.output = apply_text_edits(text, std::move(edits));
  if (uses_cuda)
    r.diagnostics.push_back(
        diag(Diag::BuildMovedToolchain, rel, 0,
             "CMake project moved to the HIP toolchain (hipcc, find_package(hip), GPU_TARGETS=" + o.arch + ")",
             "configure with cmake -S . -B build; hipcc and the hip CMake package come with Debian's "
             "hipcc and libamdhip64-dev"));
  return r;
}

Result explain_setup_py(const std::string& rel, std::string_view text) {
  Result r{std::string(text), {}};
  const std::size_t p = text.find("CUDAExtension");
  if (p == std::string_view::npos) return r;
  const auto line = static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + static_cast<long>(p), '\n'));
  r.diagnostics.push_back(
      diag(Diag::BuildCudaExtension, rel, line,
           "setup.py builds a CUDAExtension: left unchanged. On a ROCm build of PyTorch, "
           "torch.utils.cpp_extension.CUDAExtension hipifies the listed sources itself and compiles them with hipcc",
           "install the ROCm PyTorch wheel and run pip install . ; nvcc-only entries in extra_compile_args['nvcc'] "
           "are passed to hipcc, remove the ones it rejects"));
  return r;
}

std::optional<Result> migrate_build_file(const std::string& rel, project::FileKind kind, std::string_view text,
                                         const Options& given) {
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  Options options = given;
  if (options.arch.empty()) options.arch = "gfx906";
  // The HIP lines HIP -> CUDA recorded come back first, as they were written (roundtrip_record.h);
  // what each hunk this migration changes was goes into the HIP file, so that HIP -> CUDA restores
  // it exactly.
  if (kind == project::FileKind::CMake || kind == project::FileKind::Makefile) {
    const bool cmake = kind == project::FileKind::CMake;
    const Restored back = restore_originals(text, RecordOf::Hip);
    const std::string_view in = back.restored.empty() && back.edited.empty() ? text : std::string_view(back.text);
    Result r =
        cmake ? migrate_cmake(rel, in, options, back.restored) : migrate_makefile(rel, in, options, back.restored);
    for (std::uint32_t l : back.edited)
      r.diagnostics.push_back(diag(Diag::BuildRecordEdited, rel, l,
                                   "lines recorded by the HIP -> CUDA migration were edited since: migrated from CUDA",
                                   "check the HIP " + std::string(cmake ? "settings" : "flags") + " of these lines"));
    r.output = record_originals(in, r.output, cmake ? BuildSyntax::CMake : BuildSyntax::Make);
    return r;
  }
  const auto slash = rel.rfind('/');
  if (kind == project::FileKind::Python && rel.substr(slash == std::string::npos ? 0 : slash + 1) == "setup.py")
    return explain_setup_py(rel, text);
  return std::nullopt;
}

std::optional<Result> migrate_build_file_to_cuda(const std::string& rel, project::FileKind kind, std::string_view text,
                                                 const Options& given) {
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  Options options = given;
  if (options.arch.empty()) options.arch = "sm_90";
  if (kind != project::FileKind::CMake && kind != project::FileKind::Makefile) return std::nullopt;
  const bool cmake = kind == project::FileKind::CMake;
  Result r = cmake ? migrate_cmake_to_cuda(rel, text, options) : migrate_makefile_to_cuda(rel, text, options);
  // What each hunk this migration changed was (the CUDA lines the CUDA -> HIP records gave back
  // are the original's and stay unrecorded): HIP -> CUDA -> HIP restores it (roundtrip_record.h).
  const Restored back = restore_originals(text);
  const std::string_view in = back.restored.empty() && back.edited.empty() ? text : std::string_view(back.text);
  r.output = record_originals(in, r.output, cmake ? BuildSyntax::CMake : BuildSyntax::Make, RecordOf::Hip);
  return r;
}

}  // namespace ferry::buildsys
