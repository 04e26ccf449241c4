// diffrun's comparison of two program outputs: numbers token by token within tolerances, the
// text between them exactly (runs of blanks count as one), line by line.
//
// A line is split into number tokens (decimal, with sign, fraction and exponent; nan, inf and
// infinity in any case, with a sign) and text tokens (everything else, with blank runs collapsed
// and leading/trailing blanks dropped). A number is recognised only where it does not continue
// an identifier (`x1` is text). Two numbers match when their text is the same, or
//   |port - ref| <= atol + rtol * |ref|, or (with ulp >= 0) they are at most `ulp` units in the
//   last place apart (of double, or of float with ulp_float);
// NaN matches NaN only with nan_equal; an infinity matches only the infinity of the same sign.
#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ferry::diffrun {

struct Tolerance {
  double rtol = 1e-5;
  double atol = 1e-8;
  std::int64_t ulp = -1;   // < 0: no ULP criterion
  bool ulp_float = false;  // count ULPs of float32 instead of float64
  bool nan_equal = false;
};

struct Token {
  bool number = false;
  std::string text;
  double value = 0;
  std::size_t column = 0;  // 1-based byte column in its line
};

// Splits one line (without its newline) into tokens.
[[nodiscard]] std::vector<Token> tokenize_line(std::string_view line);

// ULP distance between a and b in double (or float) precision; INT64_MAX for NaN or
// opposite-signed infinities.
[[nodiscard]] std::int64_t ulp_distance(double a, double b, bool as_float);

struct NumberCheck {
  bool match = false;
  double abs_err = 0;
  double rel_err = 0;
  std::int64_t ulps = 0;
  std::string why;  // for a mismatch: "NaN vs number", "beyond tolerance", ...
};
[[nodiscard]] NumberCheck compare_numbers(const Token& ref, const Token& port, const Tolerance& tol);

struct Difference {
  // "number", "text", "token-count", "missing-line" (the port has fewer lines), "extra-line".
  std::string kind;
  std::size_t line = 0;  // 1-based
  std::size_t ref_column = 0;
  std::size_t port_column = 0;
  std::string ref;   // the token (or line) of the reference
  std::string port;  // the token (or line) of the port
  std::string ref_line;
  std::string port_line;
  double abs_err = 0;
  double rel_err = 0;
  std::int64_t ulps = 0;
  std::string why;
};

struct CompareResult {
  bool equal = true;
  std::size_t lines_ref = 0;
  std::size_t lines_port = 0;
  std::size_t numbers_compared = 0;
  double max_abs_err = 0;
  double max_rel_err = 0;
  std::size_t differences = 0;    // all of them
  std::vector<Difference> first;  // the first `max_report`
  // Not equal, but the same lines in another order: what kernels or host threads that print at
  // once leave (HIP-Examples' openmp-helloworld launches from 16 OpenMP threads), a difference in
  // the order of output, not in what is computed. The verdict stays DIFFERENT; the summary says so.
  bool reordered = false;
  // compare_with_rerun only: what varied between two runs of the reference, left out of the
  // comparison. `lines_compared`: the reference's lines with something still compared.
  bool rechecked = false;
  bool order_varies = false;       // the reference's runs printed the same lines in another order
  std::size_t varying_lines = 0;   // lines left out whole (their text or token count varied)
  std::size_t varying_fields = 0;  // numbers left out (beyond tolerance between the runs)
  std::size_t lines_compared = 0;
  std::string recheck_why;  // when the runs could not be lined up: "the reference's runs printed 3 and 4 lines"
};

struct CompareOptions {
  Tolerance tol;
  std::size_t max_report = 10;
  std::vector<std::regex> ignore;  // lines matching any of these are dropped on both sides
};

[[nodiscard]] CompareResult compare_outputs(std::string_view ref, std::string_view port, const CompareOptions& options);

// The comparison with what does not repeat in the reference left out: `ref2` is a second run of
// the reference. Lines whose text or token count differ between `ref` and `ref2` are left out
// whole, numbers that differ beyond the tolerance are left out as fields (tokenize_line's
// tokens), and when the two runs hold the same lines in another order, order does not count
// (the lines of all three are compared sorted). Runs of different line counts cannot be lined
// up: the plain comparison, with `recheck_why`.
[[nodiscard]] CompareResult compare_with_rerun(std::string_view ref, std::string_view ref2, std::string_view port,
                                               const CompareOptions& options);

// "2 lines and 3 fields varied between runs of the original (lines in another order); 5 lines
// compared" for a rechecked result; empty otherwise.
[[nodiscard]] std::string describe_recheck(const CompareResult& r);

[[nodiscard]] nlohmann::json to_json(const CompareResult& r);
// A few lines per difference, compiler-like: "line 3, col 5: 1.25 vs 1.5 (abs 0.25, rel 0.2)".
[[nodiscard]] std::string describe(const Difference& d);

}  // namespace ferry::diffrun
