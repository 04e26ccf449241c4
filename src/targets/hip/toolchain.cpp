#include "targets/hip/toolchain.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/split.h"
#include "rules/builtin.h"

namespace fs = std::filesystem;

namespace ferry::targets::hip {
namespace {

rules::Version version_field(std::string_view s, std::string_view line) {
  if (auto v = rules::Version::parse(s)) return *v;
  throw std::runtime_error("hip_toolchains.tsv: bad version '" + std::string(s) + "' in: " + std::string(line));
}

std::vector<Toolchain> load() {
  std::vector<Toolchain> out;
  for (const std::string_view line : table_rows(rules::builtin_table("profiles/hip_toolchains.tsv"))) {
    const auto f = split(line, '\t');
    if (f.size() != 5) throw std::runtime_error("hip_toolchains.tsv: expected 5 fields in: " + std::string(line));
    Toolchain tc;
    tc.name = f[0];
    tc.hip = version_field(f[1], line);
    if (f[2] != "-")
      for (std::string_view lib : split(f[2], ',')) {
        const std::size_t eq = lib.find('=');
        if (eq == std::string_view::npos)
          throw std::runtime_error("hip_toolchains.tsv: expected library=X.Y, not '" + std::string(lib) + "'");
        tc.libraries.emplace_back(std::string(lib.substr(0, eq)), version_field(lib.substr(eq + 1), line));
      }
    if (f[3] != "constexpr" && f[3] != "runtime")
      throw std::runtime_error("hip_toolchains.tsv: warp_size must be constexpr or runtime in: " + std::string(line));
    tc.warp_size_constexpr = f[3] == "constexpr";
    tc.description = f[4];
    out.push_back(std::move(tc));
  }
  if (out.empty()) throw std::runtime_error("rules/profiles/hip_toolchains.tsv is missing from the build");
  return out;
}

std::optional<rules::Version> read_hip_version_header(const fs::path& header) {
  std::ifstream in(header);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  auto number = [&](std::string_view macro) -> std::optional<unsigned> {
    const std::string key = "#define " + std::string(macro) + " ";
    const std::size_t at = s.find(key);
    if (at == std::string::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < s.size() && s[i] == ' ') ++i;
    unsigned v = 0;
    bool any = false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, any = true) v = v * 10 + static_cast<unsigned>(s[i] - '0');
    return any ? std::optional<unsigned>(v) : std::nullopt;
  };
  const auto major = number("HIP_VERSION_MAJOR");
  const auto minor = number("HIP_VERSION_MINOR");
  if (!major || !minor || *major > 999 || *minor > 999) return std::nullopt;
  return rules::Version{static_cast<std::uint16_t>(*major), static_cast<std::uint16_t>(*minor)};
}

std::string known_names() {
  std::string names;
  for (const Toolchain& t : toolchains()) names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

}  // namespace

rules::Version Toolchain::version_of(std::string_view library) const {
  for (const auto& [lib, v] : libraries)
    if (lib == library) return v;
  return hip;
}

std::string Toolchain::label() const { return "HIP " + hip.str() + " (" + name + ")"; }

const std::vector<Toolchain>& toolchains() {
  static const std::vector<Toolchain> kToolchains = load();
  return kToolchains;
}

std::optional<std::pair<rules::Version, std::string>> detect_installed_hip() {
  std::vector<fs::path> roots;
  for (const char* env : {"HIP_PATH", "ROCM_PATH"})
    if (const char* v = std::getenv(env); v && *v) roots.emplace_back(v);
  if (const char* path = std::getenv("PATH"))
    for (std::string_view dir : split(path, ':')) {
      if (dir.empty()) continue;
      std::error_code ec;
      const fs::path hipcc = fs::path(dir) / "hipcc";
      if (!fs::exists(hipcc, ec)) continue;
      const fs::path real = fs::weakly_canonical(hipcc, ec);
      roots.push_back((ec ? hipcc : real).parent_path().parent_path());  // <root>/bin/hipcc
      break;
    }
  for (const fs::path& root : roots) {
    const fs::path header = root / "include" / "hip" / "hip_version.h";
    if (auto v = read_hip_version_header(header)) return std::make_pair(*v, header.string());
  }
  return std::nullopt;
}

Toolchain resolve_toolchain(std::string_view spec) {
  const std::vector<Toolchain>& all = toolchains();
  std::optional<rules::Version> version;
  std::string chosen_by = "--hip-version " + std::string(spec);
  if (spec.empty()) {
    if (auto installed = detect_installed_hip()) {
      version = installed->first;
      chosen_by = "installed HIP (" + installed->second + ")";
    } else {
      Toolchain tc = all.front();
      tc.chosen_by = "default (no --hip-version, no installed HIP found)";
      return tc;
    }
  } else {
    for (const Toolchain& t : all)
      if (t.name == spec) {
        Toolchain tc = t;
        tc.chosen_by = chosen_by;
        return tc;
      }
    version = rules::Version::parse(spec);
    if (!version || !version->known())
      throw std::invalid_argument("--hip-version must be X.Y or a profile name (" + known_names() + "), not '" +
                                  std::string(spec) + "'");
  }
  // A profile of exactly that version; else the nearest older profile's traits at that version.
  const Toolchain* nearest = nullptr;
  for (const Toolchain& t : all) {
    if (t.hip == *version) {
      Toolchain tc = t;
      tc.chosen_by = chosen_by;
      return tc;
    }
    if (t.hip < *version && (!nearest || nearest->hip < t.hip)) nearest = &t;
  }
  Toolchain tc;
  tc.name = "hip-" + version->str();
  tc.hip = *version;
  tc.warp_size_constexpr = nearest ? nearest->warp_size_constexpr : true;
  tc.description = "HIP " + version->str() + " (no profile of its own; libraries of the same release)";
  tc.chosen_by = chosen_by;
  return tc;
}

std::string_view library_of_family(std::string_view family, std::string_view blas, std::string_view sparse) {
  if (family == "cublas") return blas == "rocblas" ? "rocblas" : "hipblas";
  if (family == "cublaslt") return "hipblaslt";
  if (family == "cusparse") return sparse == "rocsparse" ? "rocsparse" : "hipsparse";
  if (family == "curand" || family == "curand_device") return "hiprand";
  if (family == "cufft") return "hipfft";
  if (family == "cusolver") return "hipsolver";
  if (family == "cudnn") return "miopen";
  if (family == "nccl") return "rccl";
  if (family == "cub") return "hipcub";
  if (family == "thrust") return "rocthrust";
  return "hip";
}

}  // namespace ferry::targets::hip
