// Running one implementation on one case: a shared library's C entry point (ferry_opcheck.h),
// called in this process, or PyTorch code, run by a Python process that ferry starts once and
// feeds requests (torch_runner.py, embedded in the binary).
//
// Libraries are loaded with RTLD_LOCAL, so two builds of the same sources (an original and its
// port) export the same names without clashing. A library that crashes takes ferry with it: an
// entry point is trusted code, like the program diffrun runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opcheck/dtype.h"
#include "opcheck/inputs.h"
#include "opcheck/spec.h"

namespace ferry::opcheck {

struct CaseData {
  const OperatorSpec* op = nullptr;
  DType dtype = DType::f32;
  Dims dims;
  std::uint64_t seed = 0;
  std::vector<HostTensor> inputs;
  std::vector<HostTensor> outputs;                    // shapes and dtypes the outputs must have (zeros)
  std::vector<std::pair<std::string, double>> attrs;  // the operator's attrs, then the dimensions
};

struct ImplResult {
  enum class Status { ok, unsupported, error };
  Status status = Status::error;
  std::string message;
  std::vector<HostTensor> outputs;  // torch: fp64 / int64 copies of the declared outputs
  std::vector<double> times_us;     // negative entries: not timed
};

[[nodiscard]] const char* status_name(ImplResult::Status s);

struct RunnerOptions {
  std::string python = "python3";  // the interpreter of torch implementations
  double timeout_s = 900;          // per torch request
};

// Owns the loaded libraries and the Python process for one opcheck run.
class Runners {
 public:
  explicit Runners(RunnerOptions options);
  ~Runners();
  Runners(const Runners&) = delete;
  Runners& operator=(const Runners&) = delete;

  [[nodiscard]] ImplResult run(const ImplSpec& impl, const CaseData& c);
  // What the torch runner said about itself ({"torch": version, "device": name}), or null.
  [[nodiscard]] const nlohmann::json& torch_info() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The embedded runner script (generated from torch_runner.py at build time).
[[nodiscard]] std::string_view torch_runner_source();

}  // namespace ferry::opcheck
