// `ferry verify`: compile every translation unit of a tree with the real toolchain for each
// target profile (hipcc --offload-arch=gfxNNN, nvcc -arch=sm_NN), in parallel, and explain each
// failure: the error mapped back to the original file:line through migrate's line maps, and a
// class (migration-defect, missing-dependency, pre-existing, diagnosed, target-gap, unknown). See docs/verify.md.
//
// Interface: VerifyOptions in, VerifyResult out; processes are started through a ProcessRunner
// so tests can feed canned compiler output. Object files go to a temporary folder, never the tree.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/profile.h"
#include "verify/classify.h"
#include "verify/mpi.h"
#include "verify/process.h"
#include "verify/torch.h"

namespace ferry::verify {

enum class Mode {
  Migrated,  // a tree written by `ferry migrate` (or any target-dialect tree)
  Original,  // --cuda: the original CUDA source itself, compiled with nvcc
};

// The profile the originals of a tree migrated by `target` compile for: the target's
// source_profile (sm_90 for CUDA input, gfx90a for HIP input); sm_90 when the target names none.
[[nodiscard]] const analysis::Profile* default_original_profile(std::string_view target);

struct VerifyOptions {
  std::filesystem::path tree;
  Mode mode = Mode::Migrated;
  std::vector<const analysis::Profile*> profiles;  // one compile per unit and profile
  unsigned jobs = 1;
  std::chrono::seconds timeout{300};  // per compile
  std::string hipcc = "hipcc";
  std::string nvcc = "nvcc";
  std::optional<std::filesystem::path> compile_commands;
  std::vector<std::string> exclude;
  // Compile only these translation units (paths relative to the tree); empty: every unit.
  std::vector<std::string> only;
  // Compile the original of each failing unit to tell pre-existing errors from defects.
  bool check_original = true;
  const analysis::Profile* original_profile = nullptr;  // default: default_original_profile(target)
  std::optional<std::filesystem::path> cache_dir;       // results of original checks; none: no disk cache
  // When a file of the tree includes a PyTorch header, the interpreters asked for PyTorch's include
  // directories (verify/torch.h), in order; empty: default_pythons().
  std::vector<std::string> pythons;
  // Include roots of the ROCm libraries' public headers (scripts/rocm-headers.sh; --rocm-include,
  // FERRY_ROCM_INCLUDE), given to every hipcc compile as -isystem, in order. Nothing links: with
  // them a unit is compiled for real (-c), but whether it links against the libraries is not known.
  std::vector<std::filesystem::path> rocm_include;
  // The target build's defines, NAME or NAME=VALUE (--define): given as -D to every compile of the
  // tree, not to the original checks (ggml's HIP build defines GGML_USE_HIP, its CUDA build does not).
  std::vector<std::string> defines;
  // Progress (report/progress.h wires them; verify never prints). Optional; once with the number
  // of compiles and their source bytes, then from worker threads once per compile finished.
  std::function<void(std::size_t compiles, std::uintmax_t bytes)> on_start;
  std::function<void(std::uintmax_t source_bytes)> on_file_done;
};

struct UnitResult {
  std::string rel;
  std::string arch;
  std::string toolchain;
  std::vector<std::string> command;
  std::string flag_source;
  bool passed = false;
  bool timed_out = false;
  double seconds = 0;
  FailureClass cls = FailureClass::None;
  std::vector<MappedError> errors;
  std::string output;        // the compiler's output, trimmed to its first 8 KiB
  bool relocatable = false;  // compiled again as relocatable device code (needs_relocatable_device_code)
};

// True when a whole-program device compile failed only because a device function the unit calls
// is defined in another unit (lld's "undefined hidden symbol" at the AMDGPU device link; ptxas's
// "Unresolved extern function"), or nvcc refused a kernel launch from device code ("requires
// separate compilation mode"): the unit's build compiles it separately (nvcc -dc / -rdc=true,
// hipcc -fgpu-rdc), and verify compiles it so again.
[[nodiscard]] bool needs_relocatable_device_code(std::string_view output);

struct VerifyResult {
  std::filesystem::path tree;
  std::optional<std::filesystem::path> input;  // from the manifest
  std::string target;                          // from the manifest ("hip"), or "cuda" in --cuda mode
  std::string release;                         // the target's release from the manifest ("HIP 5.2 (rocm-5.2)")
  Mode mode = Mode::Migrated;
  unsigned jobs = 1;
  std::size_t translation_units = 0;
  std::optional<std::filesystem::path> compile_commands;
  std::vector<UnitResult> units;                   // sorted by (rel, arch)
  std::map<std::string, OriginalCheck> originals;  // by rel, for units whose original was compiled
  std::vector<std::string> notes;
  // Set when a file of the tree includes a PyTorch header: what was found (torch_user names the
  // first such file and torch_header its include).
  std::optional<TorchHeaders> torch;
  std::string torch_user, torch_header;
  // Set when a file of the tree includes <mpi.h> (mpi_user names the first): the MPI wrapper's
  // compile flags every unit with inferred flags gets.
  std::optional<MpiFlags> mpi;
  std::string mpi_user;
  // The ROCm library include roots used (VerifyOptions::rocm_include), and the release each names
  // in its VERSIONS file ("ROCm 5.3"), empty when it has none.
  std::vector<std::string> rocm_include;
  std::vector<std::string> rocm_include_release;
  std::vector<std::string> defines;  // VerifyOptions::defines
  double seconds = 0;                // wall time of the whole verification
  double compile_seconds = 0;        // sum over compiles of the tree (original checks excluded)
};

// Throws std::runtime_error / std::invalid_argument on unusable input (no such tree, bad manifest).
// With `only`, a name that is no translation unit of the tree is an invalid_argument.
[[nodiscard]] VerifyResult run_verify(const VerifyOptions& options, const ProcessRunner& runner);

[[nodiscard]] nlohmann::json to_json(const VerifyResult& r);
[[nodiscard]] std::string text_summary(const VerifyResult& r);
// 1 when a unit failed as a migration defect (in --cuda mode: when any unit failed for a reason
// other than a missing dependency), 0 otherwise.
[[nodiscard]] int exit_code(const VerifyResult& r);

// The include roots FERRY_ROCM_INCLUDE names (':'-separated, empty parts dropped).
[[nodiscard]] std::vector<std::filesystem::path> rocm_include_from_env();

// Where `name` (hipcc, nvcc, or a path) is: on PATH, else `fallback` (where Debian and NVIDIA
// install them) when `name` is a bare name; empty when neither exists.
[[nodiscard]] std::string locate_toolchain(const std::string& name, const char* fallback);

// The cache of original checks: $XDG_CACHE_HOME/ferry/verify, ~/.cache/ferry/verify, or a
// folder under the temporary directory.
[[nodiscard]] std::filesystem::path default_cache_dir();

}  // namespace ferry::verify
