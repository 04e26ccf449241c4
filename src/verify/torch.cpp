#include "verify/torch.h"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/text.h"
#include "verify/includes.h"

namespace fs = std::filesystem;

namespace ferry::verify {
namespace {

constexpr std::string_view kPrefix = "ferry-torch: ";

bool is_torch_header(std::string_view h) {
  for (std::string_view p : {"torch/", "ATen/", "c10/", "caffe2/"})
    if (h.substr(0, p.size()) == p) return true;
  return false;
}

// A line of source or of the probe's output without its surrounding blanks.
std::string_view trim(std::string_view s) { return ferry::trim(s, " \t\r"); }

}  // namespace

std::string torch_include(std::string_view source) { return std::string(find_include(source, is_torch_header)); }

std::vector<std::string> default_pythons() {
  std::vector<std::string> out;
  auto add = [&](std::string p) {
    if (p.empty()) return;
    for (const std::string& q : out)
      if (q == p) return;
    out.push_back(std::move(p));
  };
  if (const char* e = std::getenv("FERRY_PYTHON"); e && *e) add(e);
  add(find_program("python3").string());
  add(find_program("/usr/bin/python3").string());
  return out;
}

std::string_view torch_probe_script() {
  // The same questions torch.utils.cpp_extension answers when it builds an extension.
  return "import sys, sysconfig\n"
         "try:\n"
         "    import torch\n"
         "    import torch.utils.cpp_extension as c\n"
         "except Exception as e:\n"
         "    print('ferry-torch: none', type(e).__name__, e)\n"
         "    sys.exit(0)\n"
         "print('ferry-torch: version', torch.__version__)\n"
         "print('ferry-torch: abi', int(getattr(torch._C, '_GLIBCXX_USE_CXX11_ABI', -1)))\n"
         "for p in c.include_paths():\n"
         "    print('ferry-torch: include', p)\n"
         "print('ferry-torch: include', sysconfig.get_paths()['include'])\n";
}

TorchHeaders parse_torch_probe(std::string_view output) {
  TorchHeaders t;
  std::string none;
  std::size_t pos = 0;
  while (pos < output.size()) {
    std::size_t nl = output.find('\n', pos);
    if (nl == std::string_view::npos) nl = output.size();
    std::string_view line = output.substr(pos, nl - pos);
    pos = nl + 1;
    // cpp_extension prints its own notes ("No CUDA runtime is found, ...") on the same stream.
    if (line.substr(0, kPrefix.size()) != kPrefix) continue;
    line.remove_prefix(kPrefix.size());
    const std::size_t sp = line.find(' ');
    const std::string_view key = line.substr(0, sp);
    const std::string_view value = sp == std::string_view::npos ? std::string_view() : trim(line.substr(sp + 1));
    if (key == "version") t.version = value;
    else if (key == "abi") t.cxx11_abi = value == "1" ? 1 : value == "0" ? 0 : -1;
    else if (key == "include" && !value.empty()) t.include_dirs.emplace_back(value);
    else if (key == "none") none = value;
  }
  if (t.version.empty()) {
    t.problem = none.empty() ? "torch could not be imported" : "torch could not be imported (" + none + ")";
    return t;
  }
  // Debian's python3-torch links torch/include to /usr/include/{torch,ATen,c10}, which only
  // libtorch-dev fills: an importable torch may have no C++ headers at all.
  std::error_code ec;
  if (t.include_dirs.empty() || !fs::exists(fs::path(t.include_dirs.front()) / "torch" / "extension.h", ec))
    t.problem = "PyTorch " + t.version + " has no C++ headers" +
                (t.include_dirs.empty() ? std::string() : " (no torch/extension.h in " + t.include_dirs.front() + ")") +
                ": install them (Debian: libtorch-dev)";
  return t;
}

TorchHeaders find_torch(const std::vector<std::string>& pythons, const ProcessRunner& runner) {
  TorchHeaders first_found;  // a torch without headers, reported when no better one turns up
  std::string tried;
  for (const std::string& py : pythons) {
    tried += (tried.empty() ? "" : ", ") + py;
    const ProcessResult pr =
        runner.run({py, "-c", std::string(torch_probe_script())}, fs::current_path(), std::chrono::seconds(120));
    if (pr.launch_failed || pr.timed_out || pr.exit_code != 0) continue;
    TorchHeaders t = parse_torch_probe(pr.output);
    t.python = py;
    if (t.usable()) return t;
    if (!t.version.empty() && first_found.version.empty()) first_found = std::move(t);
  }
  if (!first_found.version.empty()) {
    first_found.problem += " [" + first_found.python + "]";
    return first_found;
  }
  TorchHeaders none;
  none.problem = "no Python with PyTorch found (tried " + (tried.empty() ? std::string("none") : tried) +
                 "): install PyTorch and its C++ headers (Debian: python3-torch, libtorch-dev), or pass --python";
  return none;
}

std::vector<std::string> torch_flags(const TorchHeaders& t, std::string_view unit_rel, bool hip) {
  std::vector<std::string> out;
  for (const std::string& d : t.include_dirs) out.push_back("-I" + d);
  std::string name = fs::path(unit_rel).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name.insert(0, "ext_");
  out.push_back("-DTORCH_EXTENSION_NAME=" + name);
  out.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  if (t.cxx11_abi >= 0) out.push_back("-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(t.cxx11_abi));
  if (hip) out.push_back("-DUSE_ROCM=1");
  return out;
}

}  // namespace ferry::verify
