// HIP -> CUDA CMake files (docs/build-files.md, "The other way"); shared pieces in to_cuda.h.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "buildsys/cmake_syntax.h"
#include "buildsys/make_syntax.h"
#include "buildsys/roundtrip_record.h"
#include "buildsys/text_edits.h"
#include "buildsys/to_cuda.h"

namespace ferry::buildsys {

using namespace to_cuda;

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
  // set(V "CUDA") of a language variable: the file's own CUDA branch (enable_language(${V}) there
  // enables CUDA too, and needs the architecture before it).
  std::set<std::string> cuda_language_vars;
  for (const auto& c : cmds) {
    if (c.name == "set" && c.args.size() >= 2 && language_vars.contains(unquote(c.args[0])) &&
        (arg_is(c.args[1], "HIP")))
      selector[unquote(c.args[0])] = "CUDA";
    if (c.name == "set" && c.args.size() >= 2 && language_vars.contains(unquote(c.args[0])) &&
        arg_is(c.args[1], "CUDA"))
      cuda_language_vars.insert(unquote(c.args[0]));
  }

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
  // nvcc flags the sources need (--extended-lambda, --expt-relaxed-constexpr: FRY5241), once per
  // file, after the command that enables the CUDA language.
  bool flags_added = false;
  auto flags_text = [&](const CMakeCommand& c) {
    const std::string f = needed_nvcc_flags(o, rel);
    if (f.empty() || flags_added) return std::string();
    flags_added = true;
    note_flags_added(o, rel, c.line, r.diagnostics);
    std::string opts;
    for (const std::string& w : make::split_words(f).words)
      opts += (opts.empty() ? "" : " ") + std::string("$<$<COMPILE_LANGUAGE:CUDA>:") + w + ">";
    return "\nadd_compile_options(" + opts + ")  # ferry: nvcc needs this for this code (hipcc did not)";
  };
  auto add_flags = [&](const CMakeCommand& c) {
    if (std::string t = flags_text(c); !t.empty()) edits.push_back({c.end, c.end, std::move(t)});
  };
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
  // FindHIP's legacy commands (hip_add_executable, hip_add_library: module mode, CMAKE_MODULE_PATH
  // at ROCm's lib/cmake/hip) and whether the file enables a GPU language itself.
  bool legacy_hip_targets = false, enables_gpu_language = false;
  for (const auto& c : cmds) {
    legacy_hip_targets = legacy_hip_targets || c.name == "hip_add_executable" || c.name == "hip_add_library";
    if (c.name == "project" || c.name == "enable_language")
      for (const auto& a : c.args) enables_gpu_language = enables_gpu_language || arg_is(a, "HIP") || arg_is(a, "CUDA");
    if (c.name == "set" && c.args.size() >= 2 && arg_is(c.args[0], "CMAKE_CXX_COMPILER") &&
        (is_hipcc_value(unquote(c.args[1])) || is_rocm_clang_value(unquote(c.args[1]))))
      enables_gpu_language = true;
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
  // Link items: targets given CUDA_SEPARABLE_COMPILATION for hipcc's -fgpu-rdc, targets given
  // CUDA::cuda_driver, and where the sources under this file's folder call the driver API.
  std::set<std::string> rdc_targets, driver_linked;
  const std::vector<bool> in_switch = runtime_switch_commands(cmds);
  const std::string driver_at = driver_api_under(o, rel);
  for (const auto& c : cmds) {
    if (c.name == "find_package" && !c.args.empty() && arg_is(c.args[0], "CUDAToolkit") && depth_of(c) == 0)
      toolkit_found = true;
    if (is_restored(c)) continue;
    // The branches of a runtime switch (`if(GPU_RUNTIME STREQUAL "HIP")`) are the authors' own
    // builds: left as written, but for the CUDA architecture set before the language is enabled.
    const bool switched = in_switch[static_cast<std::size_t>(&c - cmds.data())];
    if (switched && c.name != "project" && c.name != "enable_language") continue;
    // project(... HIP) / enable_language(HIP) -> CUDA, with the architecture set before.
    if (c.name == "project" || c.name == "enable_language") {
      bool enables = false;
      for (const auto& a : c.args) {
        if (arg_is(a, "HIP") && !switched) {
          edits.push_back({a.begin, a.end, "CUDA"});
          note(c.line, c.name + ": language HIP -> CUDA");
          enables = true;
        }
        if (const std::string v = cmake_ref(unquote(a));
            !v.empty() && (selector.contains(v) || cuda_language_vars.contains(v)))
          enables = true;
        if (arg_is(a, "CUDA")) enables = true;
      }
      if (enables && !arch_placed) {
        edits.push_back({line_start(c.begin), line_start(c.begin), arch_block});
        arch_placed = true;
      }
      if (enables) add_flags(c);
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
    // hipcc, or ROCm's clang++ (which compiles the sources of hip::device targets as HIP), as the
    // C++ compiler: the HIP sources are CUDA sources now, compiled by CMake's CUDA language.
    if (c.name == "set" && !c.args.empty() && arg_is(c.args[0], "CMAKE_CXX_COMPILER") && c.args.size() >= 2 &&
        (is_hipcc_value(unquote(c.args[1])) || is_rocm_clang_value(unquote(c.args[1])))) {
      const bool hipcc = is_hipcc_value(unquote(c.args[1]));
      // (the architecture first: an insertion at the same offset after the replacement is lost)
      if (!arch_placed) edits.push_back({line_start(c.begin), line_start(c.begin), arch_block}), arch_placed = true;
      edits.push_back({c.begin, c.end,
                       std::string("# ferry: set(CMAKE_CXX_COMPILER ") + (hipcc ? "hipcc" : "ROCm's clang++") +
                           ") removed: nvcc compiles the CUDA sources\n"
                           "enable_language(CUDA)" +
                           flags_text(c)});
      note(c.line, std::string(hipcc ? "hipcc" : "ROCm's clang++ (" + unquote(c.args[1]) + ")") +
                       " as the C++ compiler -> the CUDA language (nvcc)");
      continue;
    }
    // set(CMAKE_HIP_COMPILER ${ROCM_PATH}/llvm/bin/clang++) before project(... HIP): CMake's CUDA
    // language finds nvcc itself (CUDACXX, PATH); ROCm's clang is no CUDA compiler. Its ROCm root
    // (CMAKE_HIP_COMPILER_ROCM_ROOT) means nothing to CUDA.
    if (c.name == "set" && c.args.size() >= 2 &&
        ((arg_is(c.args[0], "CMAKE_HIP_COMPILER") &&
          (is_hipcc_value(unquote(c.args[1])) || is_rocm_clang_value(unquote(c.args[1])))) ||
         arg_is(c.args[0], "CMAKE_HIP_COMPILER_ROCM_ROOT"))) {
      const bool root = arg_is(c.args[0], "CMAKE_HIP_COMPILER_ROCM_ROOT");
      edits.push_back({c.begin, c.end,
                       "# ferry: set(" + unquote(c.args[0]) + " ...) removed: " +
                           (root ? std::string("ROCm's root, nothing in CUDA reads it")
                                 : std::string("CMake's CUDA language finds nvcc (CUDACXX, PATH or "
                                               "-DCMAKE_CUDA_COMPILER)"))});
      note(c.line,
           unquote(c.args[0]) + (root ? " (ROCm's root) removed" : " (ROCm's compiler) removed: CMake finds nvcc"));
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
        std::string with;
        // hip_add_executable's sources are CUDA sources now: the file enables the language, once.
        if (legacy_hip_targets && !enables_gpu_language && depth_of(c) == 0) {
          if (!arch_placed) edits.push_back({line_start(c.begin), line_start(c.begin), arch_block}), arch_placed = true;
          with = "\nenable_language(CUDA)  # ferry: FindHIP's hip_add_* targets are CUDA targets now" + flags_text(c);
          enables_gpu_language = true;
        }
        edits.push_back({c.begin, c.end, "find_package(CUDAToolkit REQUIRED)" + with});
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
    // add_custom_command/add_custom_target(... COMMAND ${HIP_HIPCC_EXECUTABLE} --genco k.cpp -o k.code):
    // hipcc run by hand, usually for a code object loaded at run time (hipModuleLoad). nvcc takes
    // its place with the chosen architecture; `-x cu` where a .cpp source is compiled (hipcc
    // compiled it as HIP, nvcc would take it for host C++), and --genco -> --fatbin
    // (map_hipcc_words), which cuModuleLoad and cudaLibraryLoadFromFile load.
    if (c.name == "add_custom_command" || c.name == "add_custom_target") {
      for (std::size_t k = 1; k < c.args.size(); ++k) {
        if (!arg_is(c.args[k - 1], "COMMAND") || !is_hipcc_value(unquote(c.args[k]))) continue;
        std::size_t e = k + 1;
        std::vector<std::string> words;
        bool cpp_source = false;
        for (; e < c.args.size(); ++e) {
          const std::string u = unquote(c.args[e]);
          if (u == "COMMAND" || u == "DEPENDS" || u == "VERBATIM" || u == "OUTPUT" || u == "WORKING_DIRECTORY" ||
              u == "COMMENT" || u == "BYPRODUCTS" || u == "MAIN_DEPENDENCY" || u == "USES_TERMINAL" || u == "SOURCES" ||
              u == "ALL")
            break;
          words.push_back(u);
          cpp_source =
              cpp_source || u.ends_with(".cpp") || u.ends_with(".cc") || u.ends_with(".cxx") || u.ends_with(".hip");
        }
        std::vector<Diagnostic> word_diags;
        const std::vector<std::string> mapped = map_hipcc_words(words, o, rel, c.line, word_diags, false);
        for (auto& d : word_diags) r.diagnostics.push_back(std::move(d));
        bool has_arch = false;
        for (const std::string& m : mapped) has_arch = has_arch || m.starts_with("-arch=");
        edits.push_back({c.args[k].begin, c.args[k].end,
                         "nvcc" + std::string(cpp_source ? " -x cu" : "") + (has_arch ? "" : " -arch=sm_" + arch)});
        for (std::size_t j = 0; j < words.size(); ++j) {
          if (mapped[j] == words[j]) continue;
          const CMakeArg& a = c.args[k + 1 + j];
          std::size_t b = a.begin;
          if (mapped[j].empty())
            while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t')) --b;
          edits.push_back({b, a.end, mapped[j]});
        }
        note(c.line, "hipcc step -> nvcc" + std::string(cpp_source ? " -x cu" : "") + " (sm_" + arch + ")");
        k = e;
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
    // FindHIP's hip_add_executable(name [options] sources... [HIPCC_OPTIONS ...] [HCC_OPTIONS ...]
    // [CLANG_OPTIONS ...] [NVCC_OPTIONS ...]) and hip_add_library: CMake's own add_executable /
    // add_library; the NVCC_OPTIONS become the target's CUDA compile options, the AMD compilers'
    // options go; .hip sources are marked CUDA (a .cpp is a HIP source through
    // HIP_SOURCE_PROPERTY_FORMAT, below).
    if ((c.name == "hip_add_executable" || c.name == "hip_add_library") && !c.args.empty()) {
      std::string out = c.name == "hip_add_executable" ? "add_executable(" : "add_library(";
      std::vector<std::string> nvcc_opts, hip_sources;
      std::string group;  // the option group an argument is in ("" = name, options, sources)
      for (std::size_t k = 0; k < c.args.size(); ++k) {
        const std::string t = unquote(c.args[k]);
        if (t == "HIPCC_OPTIONS" || t == "HCC_OPTIONS" || t == "CLANG_OPTIONS" || t == "NVCC_OPTIONS") {
          group = t;
          continue;
        }
        if (group == "NVCC_OPTIONS") nvcc_opts.push_back(c.args[k].text);
        if (!group.empty()) continue;
        out += (k ? " " : "") + c.args[k].text;
        if (k > 0 && t.ends_with(".hip")) hip_sources.push_back(c.args[k].text);
      }
      out += ")";
      if (!hip_sources.empty()) {
        out += "\nset_source_files_properties(";
        for (std::size_t k = 0; k < hip_sources.size(); ++k) out += (k ? " " : "") + hip_sources[k];
        out += " PROPERTIES LANGUAGE CUDA)";
      }
      if (!nvcc_opts.empty()) {
        out += "\ntarget_compile_options(" + c.args[0].text + " PRIVATE";
        for (const std::string& w : nvcc_opts) out += " " + w;
        out += ")";
      }
      edits.push_back({c.begin, c.end, out});
      note(c.line, c.name + " (FindHIP) -> " + (c.name == "hip_add_executable" ? "add_executable" : "add_library") +
                       " with CUDA sources" + (nvcc_opts.empty() ? "" : " and its NVCC_OPTIONS"));
      continue;
    }
    if ((c.name == "if" || c.name == "elseif") && !c.args.empty()) {
      for (const auto& a : c.args)
        if (arg_is(a, "HIP_FOUND")) {
          edits.push_back({a.begin, a.end, "CUDAToolkit_FOUND"});
          note(c.line, "HIP_FOUND -> CUDAToolkit_FOUND");
        }
    }
    if (c.name == "set_source_files_properties")
      for (std::size_t k = 0; k + 1 < c.args.size(); ++k)
        if (arg_is(c.args[k], "HIP_SOURCE_PROPERTY_FORMAT")) {
          edits.push_back({c.args[k].begin, c.args[k + 1].end, "LANGUAGE CUDA"});
          note(c.line, "HIP_SOURCE_PROPERTY_FORMAT (FindHIP's HIP source) -> LANGUAGE CUDA");
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
    std::string after_cmd;        // commands added after this one
    bool all_header_only = true;  // every dropped link item is a header-only ROCm library
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
      } else if (links && k > 0 && (t == "-fgpu-rdc" || t == "--hip-link")) {
        // hipcc's link options: relocatable device code is CMake's CUDA_SEPARABLE_COMPILATION
        // (nvcc -rdc=true and a device link step); --hip-link, nvcc links CUDA code itself.
        repl.clear();
        ++dropped_items;
        all_header_only = false;
        if (t == "-fgpu-rdc" && rdc_targets.insert(unquote(c.args[0])).second)
          after_cmd += "\nset_target_properties(" + unquote(c.args[0]) +
                       " PROPERTIES CUDA_SEPARABLE_COMPILATION ON)  # ferry: -fgpu-rdc at link";
        note(c.line, "'" + t + "' -> " +
                         (t == "-fgpu-rdc" ? "CUDA_SEPARABLE_COMPILATION ON (relocatable device code, device link)"
                                           : "nothing (nvcc links CUDA code itself)"));
      } else if (links && k > 0 && !(t == "PUBLIC" || t == "PRIVATE" || t == "INTERFACE")) {
        const RocLib* l = find_roc_target(t);
        if (!l) l = find_roc_lib(starts_with(t, "-l") ? t.substr(2) : t);
        if (l) {
          std::string to = starts_with(t, "-l") ? (*l->cuda ? std::string("-l") + l->cuda : "") : l->cuda_target;
          // HIP's one library also holds the driver API; CUDA's is libcuda (CUDA::cuda_driver).
          if (to == "CUDA::cudart" && !driver_at.empty() && driver_linked.insert(unquote(c.args[0])).second)
            to += " CUDA::cuda_driver";
          else if (to == "-lcudart" && !driver_at.empty() && driver_linked.insert(unquote(c.args[0])).second)
            to += " -lcuda";
          repl = to;
          if (to.empty()) ++dropped_items;
          else ++kept_items;
          all_header_only = all_header_only && (!to.empty() || !l->none_why);
          note(c.line, "'" + t + "' -> " +
                           (to.empty() ? std::string(l->none_why ? l->none_why : "nothing (header-only in CUDA)")
                                       : "'" + to + "'") +
                           (to.find("cuda_driver") != std::string::npos || to.ends_with(" -lcuda")
                                ? " (the sources call the driver API, " + driver_at + ")"
                                : ""));
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
                       "# ferry: target_link_libraries(" + unquote(c.args[0]) + " ...) " +
                           (all_header_only ? "of header-only ROCm libraries removed (CUB/Thrust come with CUDA)"
                                            : "removed: CUDA links none of it (hipcc link options, AMD's runtime "
                                              "internals)") +
                           after_cmd});
    } else {
      edits.insert(edits.end(), cmd_edits.begin(), cmd_edits.end());
      if (!after_cmd.empty()) edits.push_back({c.end, c.end, after_cmd});
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
