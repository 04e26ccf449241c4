#include "diffrun/constructs.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <system_error>

#include "core/diagnostic.h"

namespace ferry::diffrun {
namespace fs = std::filesystem;

namespace {

bool source_or_header(const fs::path& p) {
  static const std::vector<std::string> exts = {".cu", ".cuh", ".hip", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".inl"};
  return std::find(exts.begin(), exts.end(), p.extension().string()) != exts.end();
}

std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return {};
  const std::size_t b = s.find_last_not_of(" \t\r");
  std::string t = s.substr(a, b - a + 1);
  return t.size() > 80 ? t.substr(0, 80) + "..." : t;
}

std::vector<fs::path> sources_of(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && source_or_header(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<ConstructNote> unsupported_constructs(const fs::path& dir, std::size_t max, const fs::path& port_dir) {
  const std::vector<fs::path> files = sources_of(dir);
  // A conditional that tests the device pass: `#if __CUDA_ARCH__ >= 700`, `#ifdef __CUDA_ARCH__`,
  // `#if defined(__HIP_DEVICE_COMPILE__)`, `#elif ...`. `#ifndef` selects the host branch, which the
  // runtime compiles, but its #else is device-only all the same.
  static const std::regex arch(R"(^\s*#\s*(if|ifdef|ifndef|elif)\b.*\b(__CUDA_ARCH__|__HIP_DEVICE_COMPILE__)\b)");
  std::vector<ConstructNote> out;
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (!std::regex_search(line, arch)) continue;
      if (out.size() >= max) return out;
      const bool hip = line.find("__HIP_DEVICE_COMPILE__") != std::string::npos;
      out.push_back({std::string(to_string(Diag::Wave64DeviceOnlyBranch)), f.filename().string(), n,
                     "`" + trimmed(line) + "`: the wave64 runtime compiles kernels in the host pass, where " +
                         (hip ? "__HIP_DEVICE_COMPILE__" : "__CUDA_ARCH__") +
                         " is not defined, so the device-only branch of this test is left out"});
    }
  }
  // A lane count fixed at 32 by name: `warp_size = 32` (a declaration or an assignment),
  // `#define WARP_SIZE 32`, `constexpr int kWarpSize = 32`.
  static const std::string name =
      R"((warp_?size|WARP_?SIZE|[kK]_?[Ww]arp_?[Ss]ize|warpsize|WarpSize|threads_per_warp|THREADS_PER_WARP))";
  static const std::regex fixed32(R"((\b)" + name + R"(\s*=\s*32\b)|(^\s*#\s*define\s+)" + name +
                                  R"(\s+\(?32\)?\s*($|//|/\*)))");
  std::size_t fixed = 0;
  const std::vector<fs::path> port_files = sources_of(port_dir.empty() ? dir : port_dir);
  // A tree step that starts from warpSize (`for (i = warpSize / 2; ...)`, `warpSize >> 1`) in a file
  // with a `__shared__` array of 32 elements indexed with an offset (`s[threadIdx.x + i]`): the
  // program means 32 by warpSize (cuda-samples' simpleHyperQ sums 32 per-thread values in
  // `__shared__ clock_t s_clocks[32]` with `sum<<<1, 32>>>`); at 64 lanes the first step reads
  // s[threadIdx.x + 32], past the array's end, and the result is whatever memory follows it.
  static const std::regex shared32(R"(__shared__[^;\[(]*?\b(\w+)\s*\[\s*32\s*\])");
  static const std::regex from_warp(R"(\bwarpSize\s*(/\s*2\b|>>\s*1\b))");
  for (const fs::path& f : port_files) {
    std::ifstream in(f);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::vector<std::string> arrays;
    for (const std::string& l : lines)
      for (auto it = std::sregex_iterator(l.begin(), l.end(), shared32); it != std::sregex_iterator(); ++it)
        arrays.push_back((*it)[1].str());
    if (arrays.empty()) continue;
    std::string walked;
    for (const std::string& a : arrays) {
      const std::regex offset_index("\\b" + a + R"(\s*\[[^\]]*\+[^\]]*\])");
      for (const std::string& l : lines)
        if (std::regex_search(l, offset_index)) walked = a;
      if (!walked.empty()) break;
    }
    if (walked.empty()) continue;
    for (std::size_t n = 0; n < lines.size(); ++n) {
      const std::string t = trimmed(lines[n]);
      if (!std::regex_search(lines[n], from_warp) || t.starts_with("//") || t.starts_with("*")) continue;
      if (out.size() >= max) return out;
      out.push_back({std::string(to_string(Diag::Wave64WarpSizeOverFixedArray)), f.filename().string(),
                     static_cast<int>(n + 1),
                     "`" + t + "`: a step that starts from warpSize walks `" + walked +
                         "`, a __shared__ array of 32 elements: the program means 32 by warpSize; at 64 lanes the "
                         "first step reads past the array's end, and the result is whatever memory follows it"});
      break;
    }
  }
  for (const fs::path& f : port_files) {
    std::ifstream in(f);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (!std::regex_search(line, fixed32)) continue;
      const std::string t = trimmed(line);
      if (t.starts_with("//") || t.starts_with("*") || t.starts_with("/*")) continue;
      if (out.size() >= max || ++fixed > 2) return out;
      out.push_back({std::string(to_string(Diag::Wave64FixedLaneCount)), f.filename().string(), n,
                     "`" + t + "`: the program fixes the lane count at 32 in its own code; at 64 lanes what depends " +
                         "on it (sizes, strides, its own check of the results) expects 32-lane results"});
    }
  }
  return out;
}

std::string describe(const std::vector<ConstructNote>& notes) {
  std::string s;
  for (const ConstructNote& n : notes) {
    if (!s.empty()) s += "; ";
    s += n.code + " " + n.file + ":" + std::to_string(n.line) + ": " + n.message;
  }
  return s;
}

}  // namespace ferry::diffrun
