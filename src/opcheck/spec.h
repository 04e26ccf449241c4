// The spec of `ferry opcheck` (docs/opcheck.md): operators, their inputs and outputs, shapes,
// dtypes, seeds, tolerances, and the implementations to run: a reference and candidates, each a
// shared library with a C entry point (ferry_opcheck.h) or a snippet of PyTorch.
//
// Loading validates everything before anything runs: unknown keys (with a "did you mean"),
// wrong types, dimensions no shape defines, libraries nobody declared, unknown dtypes, variables
// nobody set. Errors are std::invalid_argument with the JSON path of the problem and code
// FRY9301, e.g. "spec.json: operators[2] (rope).inputs[0].shape[1]: unknown dimension 'heads'
// (the shapes define tokens, n_heads, head_dim) [FRY9301]".
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "opcheck/dtype.h"

namespace ferry::opcheck {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
  std::optional<double> ulp;  // also accept elements at most this many ULPs of the output dtype off
};

// Tolerances per dtype name ("fp16", ...) with "default" for the others; nothing: exact.
struct ToleranceTable {
  std::map<std::string, Tolerance> by_dtype;
  [[nodiscard]] Tolerance for_dtype(DType t) const;
  [[nodiscard]] bool empty() const { return by_dtype.empty(); }
};

// How an input is filled: every argument is a number or the name of a shape dimension / attr.
struct Init {
  enum class Kind { uniform, normal, randint, arange, constant };
  Kind kind = Kind::uniform;
  std::vector<std::string> args;  // uniform(lo, hi) normal(mean, std) randint(lo, hi) constant(v)
  std::string text;               // as written
};

struct TensorSpec {
  std::string name;
  std::vector<std::string> shape;            // dimension names or integer literals
  std::optional<DType> dtype;                // nullopt: the case's dtype
  Init init;                                 // inputs only
  std::optional<ToleranceTable> tolerances;  // outputs only: overrides the operator's
};

struct ImplSpec {
  enum class Kind { library, torch };
  std::string name;
  Kind kind = Kind::library;
  std::string library;  // resolved path of the shared library
  std::string symbol;
  std::string torch_code;            // sets the outputs by name
  std::string torch_setup;           // run once, untimed
  std::optional<DType> upcast;       // torch: run on inputs converted to this float type
  std::string device = "auto";       // torch: auto (cuda when available), cuda, cpu
  std::vector<std::string> outputs;  // the outputs it computes (empty: all); the others are not compared
  bool informational = false;        // a candidate shown for comparison (another framework's kernel): its
                                     // failures are reported but do not fail the run
};

struct OperatorSpec {
  std::string name;
  std::string description;
  std::vector<TensorSpec> inputs, outputs;
  std::vector<std::pair<std::string, double>> attrs;
  std::vector<std::vector<std::pair<std::string, std::int64_t>>> shapes;  // in the spec's order
  std::vector<DType> dtypes;
  std::vector<std::uint64_t> seeds;
  ImplSpec reference;
  std::vector<ImplSpec> candidates;
  std::string baseline;  // the implementation times are compared with (default: the reference)
  ToleranceTable tolerances;
  int warmup = 3;
  int repeats = 20;
};

struct Spec {
  std::string path;
  std::string name;
  std::vector<OperatorSpec> operators;
};

// ${NAME} in library paths is replaced from `vars`, then from the environment.
[[nodiscard]] Spec load_spec(const std::filesystem::path& file, const std::map<std::string, std::string>& vars = {});
// The same from text; relative library paths are relative to `base`.
[[nodiscard]] Spec parse_spec(const std::string& text, const std::string& origin, const std::filesystem::path& base,
                              const std::map<std::string, std::string>& vars = {});

}  // namespace ferry::opcheck
