// `ferry opcheck SPEC.json`: does each implementation of an operator compute what the reference
// computes, per dtype and shape, and how fast is it (docs/opcheck.md)?
//
// For every operator x dtype x shape x seed the harness makes the inputs once (inputs.h), runs
// the reference and every candidate on them (impl.h), compares each candidate's outputs with the
// reference's element by element (compare.h), and keeps the times each reports. A row of the
// result is an operator x dtype x shape, with errors aggregated over the seeds (worst case,
// mean over all elements) and the median of all timed repeats.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opcheck/compare.h"
#include "opcheck/impl.h"
#include "opcheck/spec.h"

namespace ferry::opcheck {

struct OutputResult {
  std::string name;
  DType dtype = DType::f32;
  Tolerance tolerance;
  ErrorStats stats;      // merged over seeds
  bool compared = true;  // false: the implementation does not compute this output
};

struct ImplRow {
  std::string name;
  bool reference = false;
  bool informational = false;                          // not counted in the summary (ImplSpec::informational)
  ImplResult::Status status = ImplResult::Status::ok;  // worst over seeds
  std::string message;
  std::vector<OutputResult> outputs;  // candidates only
  std::vector<double> times_us;       // every timed repeat of every seed
  double median_us = -1;              // < 0: not timed
  double ratio = -1;                  // median / the baseline's median; < 0: unknown
  [[nodiscard]] bool pass() const;    // ok and every output within tolerance
};

struct CaseRow {
  DType dtype = DType::f32;
  Dims dims;
  std::vector<ImplRow> impls;  // reference first
};

struct OperatorResult {
  std::string name, description, baseline;
  std::vector<CaseRow> rows;
};

struct Result {
  std::string spec;
  std::vector<OperatorResult> operators;
  nlohmann::json torch = nullptr;
  std::size_t checks = 0, passed = 0, failed = 0, unsupported = 0, errors = 0;  // candidate x row
  std::size_t informational = 0, informational_failed = 0;                      // informational candidates x row
  [[nodiscard]] bool ok() const { return failed == 0 && errors == 0 && checks > 0; }
};

struct Options {
  RunnerOptions runners;
  std::vector<std::string> only;  // operator names; empty: all
};

using Progress = std::function<void(const std::string&)>;
// Called after each operator with the result so far (its last entry is that operator), so that a
// long run can show and save what it has before it ends.
using OperatorDone = std::function<void(const Result&)>;

// Throws std::invalid_argument when `only` names an operator the spec lacks.
[[nodiscard]] Result run_opcheck(const Spec& spec, const Options& options, const Progress& progress = {},
                                 const OperatorDone& done = {});

[[nodiscard]] nlohmann::json to_json(const Result& r);
// One table per operator: rows dtype x shape, a line per implementation (and output).
[[nodiscard]] std::string to_text(const Result& r);
[[nodiscard]] std::string operator_text(const OperatorResult& op);
[[nodiscard]] std::string summary_text(const Result& r);

}  // namespace ferry::opcheck
