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
};

struct CompareOptions {
  Tolerance tol;
  std::size_t max_report = 10;
  std::vector<std::regex> ignore;  // lines matching any of these are dropped on both sides
};

[[nodiscard]] CompareResult compare_outputs(std::string_view ref, std::string_view port, const CompareOptions& options);

[[nodiscard]] nlohmann::json to_json(const CompareResult& r);
// A few lines per difference, compiler-like: "line 3, col 5: 1.25 vs 1.5 (abs 0.25, rel 0.2)".
[[nodiscard]] std::string describe(const Difference& d);

}  // namespace ferry::diffrun
