// Build files: CMake (through buildsys::parse_cmake) and Makefiles — which GPU build system a
// project has and which CUDA libraries it links (rules/libraries.h's link names).
#include <algorithm>

#include "buildsys/build_files.h"
#include "buildsys/cmake_syntax.h"
#include "scan/scanner.h"

namespace ferry::scan::detail {

// CMake: the commands of buildsys::parse_cmake (the tokenizer the CMake migration uses; `#` and
// `#[[ ]]` comments and bracket arguments never count): project/enable_language(CUDA),
// find_package(CUDA|CUDAToolkit|Torch|NCCL|cuDNN), cuda_add_*, and the CUDA libraries linked.
void Scanner::scan_cmake() {
  const std::string_view s = text_;
  out_.file.lines =
      static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + (s.empty() || s.back() == '\n' ? 0 : 1);
  std::vector<buildsys::CMakeCommand> cmds;
  try {
    cmds = buildsys::parse_cmake(s);
  } catch (const std::exception& e) {
    out_.problems.push_back(
        {Diag::BuildLeftForReview, info(Diag::BuildLeftForReview).severity, rel_, 0, 0,
         std::string("cannot tokenize this CMake file (") + e.what() + "): its GPU settings are not counted",
         "fix the syntax (ferry migrate copies such a file unchanged)"});
    return;
  }
  std::vector<std::size_t> line_starts{0};  // byte offset of each line's first byte
  for (std::size_t k = 0; k < s.size(); ++k)
    if (s[k] == '\n') line_starts.push_back(k + 1);
  auto where = [&](std::size_t at) {
    const auto it = std::upper_bound(line_starts.begin(), line_starts.end(), at);
    const std::size_t l = static_cast<std::size_t>(it - line_starts.begin());
    return std::pair<std::uint32_t, std::uint32_t>(static_cast<std::uint32_t>(l),
                                                   static_cast<std::uint32_t>(at - line_starts[l - 1] + 1));
  };
  struct Arg {
    std::string_view text;  // unquoted
    std::uint32_t line, col;
  };
  for (const buildsys::CMakeCommand& cmd : cmds) {
    const std::string& command = cmd.name;
    const auto [cmd_line, cmd_col] = where(cmd.begin);
    std::vector<Arg> args;
    for (const buildsys::CMakeArg& a : cmd.args) {
      if (a.bracket || (!a.quoted && (a.text == "(" || a.text == ")"))) continue;
      std::string_view t = a.text;
      if (a.quoted) t = t.substr(1, t.size() - 2);
      const auto [l, c] = where(a.begin);
      args.push_back({t, l, c});
    }
    auto has = [&](std::string_view w) {
      return std::any_of(args.begin(), args.end(), [&](const Arg& a) { return a.text == w; });
    };
    if (command == "project" && has("CUDA")) build("cmake", "project(... LANGUAGES CUDA)", cmd_line, cmd_col);
    if ((command == "enable_language" || command == "check_language") && has("CUDA"))
      build("cmake", command + "(CUDA)", cmd_line, cmd_col);
    if (command == "find_package" && !args.empty()) {
      const std::string_view p = args.front().text;
      if (p == "CUDA") build("cmake", "find_package(CUDA) (legacy FindCUDA)", cmd_line, cmd_col);
      if (p == "CUDAToolkit") build("cmake", "find_package(CUDAToolkit)", cmd_line, cmd_col);
      if (p == "Torch") use(cmd_line, cmd_col, "find_package(Torch)", "pytorch", "build", "pytorch-cpp", {});
      if (p == "NCCL") use(cmd_line, cmd_col, "find_package(NCCL)", "nccl", "build", "nccl", {});
      if (p == "CUDNN" || p == "cuDNN") use(cmd_line, cmd_col, "find_package(cuDNN)", "cudnn", "build", "cudnn", {});
    }
    if (starts(command, "cuda_add_")) build("cmake", command + " (legacy FindCUDA)", cmd_line, cmd_col);
    if (command == "find_library" || command == "target_link_libraries" || command == "find_path" ||
        command == "link_libraries") {
      for (const Arg& a : args) {
        const std::string_view id = link_library(a.text);
        if (!id.empty()) use(a.line, a.col, std::string(a.text), std::string(id), "link", std::string(id), {});
      }
    }
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
    if (end == std::string_view::npos) end = s.size();
    ++line;
    std::string_view ln = s.substr(pos, end - pos);
    for (std::size_t k = 0; k < ln.size(); ++k)
      if (ln[k] == '#' && (k == 0 || ln[k - 1] != '\\')) {
        ln = ln.substr(0, k);
        break;
      }
    std::size_t k = 0;
    auto sep = [](char c) {
      return std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == ':' || c == ';' || c == ',' || c == '(' ||
             c == ')' || c == '$' || c == '{' || c == '}' || c == '"' || c == '\'' || c == '?' || c == '+';
    };
    while (k < ln.size()) {
      while (k < ln.size() && sep(ln[k])) ++k;
      std::size_t e = k;
      while (e < ln.size() && !sep(ln[e])) ++e;
      if (e > k) {
        const std::string_view w = ln.substr(k, e - k);
        const auto c = static_cast<std::uint32_t>(k + 1);
        if (lower(w) == "nvcc" || ends(w, "/nvcc")) build("make", "nvcc", line, c);
        if (starts(w, "-l")) {
          const std::string_view lib = w.substr(2);
          const std::string_view id = link_library(lib);
          if (!id.empty()) use(line, c, std::string(w), std::string(id), "link", std::string(id), {});
        }
      }
      k = e;
    }
    out_.file.lines = line;
    if (end == s.size()) break;
    pos = end + 1;
  }
  if (!s.empty() && s.back() == '\n') out_.file.lines = line - 1;
}

}  // namespace ferry::scan::detail
