#include "rules/cuda_version.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace ferry::rules {

std::optional<CudaVersion> parse_cuda_version(std::string_view s) {
  CudaVersion v;
  std::size_t i = 0;
  auto number = [&](int& out) {
    const std::size_t b = i;
    out = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - b < 4) out = out * 10 + (s[i++] - '0');
    return i > b;
  };
  if (!number(v.major)) return std::nullopt;
  v.minor = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!number(v.minor)) return std::nullopt;
    if (i < s.size() && s[i] == '.') {
      ++i;
      int patch = 0;
      if (!number(patch)) return std::nullopt;
    }
  }
  if (i != s.size() || v.major < 7 || v.major > 99) return std::nullopt;
  return v;
}

std::optional<CudaVersion> installed_nvcc_version() {
  for (const char* cmd : {"nvcc --version 2>/dev/null", "/usr/local/cuda/bin/nvcc --version 2>/dev/null"}) {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd, "r"), pclose);
    if (!p) continue;
    std::string out;
    std::array<char, 256> buf{};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), p.get())) out += buf.data();
    // "Cuda compilation tools, release 13.0, V13.0.88"
    const std::size_t at = out.find("release ");
    if (at == std::string::npos) continue;
    std::size_t e = at + 8;
    while (e < out.size() && (out[e] == '.' || (out[e] >= '0' && out[e] <= '9'))) ++e;
    if (auto v = parse_cuda_version(std::string_view(out).substr(at + 8, e - at - 8))) return v;
  }
  return std::nullopt;
}

int oldest_supported_sm(const CudaVersion& v) {
  if (v.at_least(13)) return 75;
  if (v.at_least(12)) return 50;
  if (v.at_least(11)) return 35;
  if (v.at_least(9)) return 30;
  return 20;
}

bool note_allows(std::string_view note, const CudaVersion& v) {
  // Every bound in the note must hold: "from CUDA X.Y" / "needs CUDA >= X.Y" (v >= X.Y),
  // "before CUDA X.Y" (v < X.Y).
  auto holds = [&](std::string_view key, bool lower) {
    for (std::size_t at = note.find(key); at != std::string_view::npos; at = note.find(key, at + 1)) {
      std::size_t e = at + key.size();
      while (e < note.size() && (note[e] == '.' || (note[e] >= '0' && note[e] <= '9'))) ++e;
      std::string_view num = note.substr(at + key.size(), e - at - key.size());
      while (num.ends_with('.')) num.remove_suffix(1);
      const auto b = parse_cuda_version(num);
      if (!b) continue;
      if (v.at_least(b->major, b->minor) != lower) return false;
    }
    return true;
  };
  return holds("needs CUDA >= ", true) && holds("from CUDA ", true) && holds("before CUDA ", false);
}

}  // namespace ferry::rules
