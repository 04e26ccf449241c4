// Python (import torch/cupy/pycuda/triton, numba.cuda, .cuda(), torch.cuda.*, device strings,
// CUDAExtension) and Bazel/Starlark files (cuda_* rules, CUDA toolchain labels), through lex::py.
#include "lex/python_lexer.h"
#include "scan/scanner.h"

namespace ferry::scan::detail {
namespace {

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
  for (const lex::py::Token& t : lex::py::tokenize(s)) {
    if (lex::py::is_trivia(t.kind)) continue;
    std::string_view text = t.text(s);
    if (t.kind == lex::py::Kind::String) text = lex::py::split_string(text).body;
    out.push_back({t.kind, text, t.line, t.col});
  }
  return out;
}

}  // namespace

void Scanner::scan_python(bool bazel) {
  const std::vector<PyToken> toks = py_code_tokens(text_);
  out_.file.lines = static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) +
                    (text_.empty() || text_.back() == '\n' ? 0 : 1);
  auto is = [&](std::size_t i, std::string_view t) { return i < toks.size() && toks[i].text == t; };
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const PyToken& t = toks[i];
    if (bazel) {
      if (t.kind == lex::py::Kind::Name && starts(t.text, "cuda_") && is(i + 1, "("))
        build("bazel", std::string(t.text), t.line, t.col);
      if (t.kind == lex::py::Kind::String && (t.text.find("local_config_cuda") != std::string_view::npos ||
                                              t.text.find("rules_cuda") != std::string_view::npos))
        build("bazel", "CUDA toolchain (" + std::string(t.text.substr(0, 60)) + ")", t.line, t.col);
      continue;
    }
    if (t.kind == lex::py::Kind::String) {
      if (t.text == "cuda" || (starts(t.text, "cuda:") && t.text.size() <= 8))
        use(t.line, t.col, "\"" + std::string(t.text) + "\"", "pytorch", "device-string", "pytorch",
            construct("pytorch"));
      continue;
    }
    if (t.kind != lex::py::Kind::Name) continue;
    const bool after_dot = i > 0 && is(i - 1, ".");
    if ((t.text == "import" || t.text == "from") && i + 1 < toks.size() && !after_dot) {
      const std::string_view mod = toks[i + 1].text;
      std::string lib = mod == "torch"    ? "pytorch"
                        : mod == "cupy"   ? "cupy"
                        : mod == "pycuda" ? "pycuda"
                        : mod == "triton" ? "triton"
                                          : "";
      if (mod == "numba" && (is(i + 3, "cuda") || (is(i + 2, "import") && is(i + 3, "cuda")))) lib = "numba-cuda";
      if (!lib.empty())
        use(toks[i + 1].line, toks[i + 1].col, std::string(mod), lib == "pytorch" ? "pytorch" : lib, "import", lib,
            lib == "pytorch" ? construct("pytorch") : unknown());
      continue;
    }
    if (t.text == "CUDAExtension" || t.text == "BuildExtension" || t.text == "load_inline") {
      if (!after_dot || (i >= 2 && is(i - 2, "cpp_extension"))) {
        if (t.text != "BuildExtension")
          build("setuptools", "torch.utils.cpp_extension." + std::string(t.text), t.line, t.col);
        if (t.text == "CUDAExtension")
          use(t.line, t.col, std::string(t.text), "pytorch", "build", "pytorch-cpp", construct("pytorch"));
      }
      continue;
    }
    if (t.text == "cuda" && after_dot) {
      const bool torch = i >= 2 && is(i - 2, "torch");
      if (is(i + 1, "(")) {
        use(t.line, t.col, ".cuda()", "pytorch", "call", "pytorch", construct("pytorch"));
      } else if (torch) {
        std::string full = "torch.cuda";
        if (is(i + 1, ".") && i + 2 < toks.size() && toks[i + 2].kind == lex::py::Kind::Name)
          full += "." + std::string(toks[i + 2].text);
        use(t.line, t.col, std::move(full), "pytorch", "call", "pytorch", construct("pytorch"));
      } else if (i >= 2 && is(i - 2, "numba")) {
        use(t.line, t.col, "numba.cuda", "numba-cuda", "call", "numba-cuda", unknown());
      }
    }
  }
}

}  // namespace ferry::scan::detail
