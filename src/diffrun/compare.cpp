#include "diffrun/compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace ferry::diffrun {
namespace {

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

bool word_at(std::string_view s, std::size_t i, std::string_view w) {
  if (s.size() - i < w.size()) return false;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(s[i + k])) != w[k]) return false;
  return i + w.size() == s.size() || !is_ident_char(s[i + w.size()]);
}

// Length of the number starting at i (0 when there is none).
std::size_t number_length(std::string_view s, std::size_t i) {
  if (i > 0 && (is_ident_char(s[i - 1]) || s[i - 1] == '.')) return 0;
  std::size_t j = i;
  if (s[j] == '+' || s[j] == '-') ++j;
  if (j >= s.size()) return 0;
  for (std::string_view w : {"infinity", "inf", "nan"})
    if (word_at(s, j, w)) return j + w.size() - i;
  const std::size_t mantissa = j;
  while (j < s.size() && is_digit(s[j])) ++j;
  bool digits = j > mantissa;
  if (j < s.size() && s[j] == '.') {
    const std::size_t frac = ++j;
    while (j < s.size() && is_digit(s[j])) ++j;
    digits = digits || j > frac;
  }
  if (!digits) return 0;
  if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
    std::size_t k = j + 1;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) ++k;
    if (k < s.size() && is_digit(s[k])) {
      while (k < s.size() && is_digit(s[k])) ++k;
      j = k;
    }
  }
  return j - i;
}

void flush_text(std::string& text, std::size_t column, std::vector<Token>& out) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (!text.empty()) out.push_back({false, std::move(text), 0, column});
  text.clear();
}

struct Line {
  std::size_t number;  // 1-based, in the unfiltered output
  std::string_view text;
};

std::vector<Line> split_lines(std::string_view s, const std::vector<std::regex>& ignore) {
  std::vector<Line> lines;
  std::size_t start = 0, n = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) nl = s.size();
    std::string_view line = s.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++n;
    bool skip = false;
    for (const std::regex& re : ignore) skip = skip || std::regex_search(line.begin(), line.end(), re);
    if (!skip) lines.push_back({n, line});
    start = nl + 1;
  }
  return lines;
}

}  // namespace

std::vector<Token> tokenize_line(std::string_view line) {
  std::vector<Token> out;
  std::string text;
  std::size_t text_col = 0;
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    const bool may_start =
        is_digit(c) || c == '+' || c == '-' || c == '.' || c == 'n' || c == 'N' || c == 'i' || c == 'I';
    if (const std::size_t len = may_start ? number_length(line, i) : 0; len > 0) {
      flush_text(text, text_col, out);
      Token t{true, std::string(line.substr(i, len)), 0, i + 1};
      t.value = std::strtod(t.text.c_str(), nullptr);
      out.push_back(std::move(t));
      i += len;
      continue;
    }
    if (is_blank(c)) {
      if (!text.empty() && text.back() != ' ') text.push_back(' ');
    } else {
      if (text.empty()) text_col = i + 1;
      text.push_back(c);
    }
    ++i;
  }
  flush_text(text, text_col, out);
  return out;
}

std::int64_t ulp_distance(double a, double b, bool as_float) {
  constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max();
  if (std::isnan(a) || std::isnan(b)) return kFar;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) {
    if (std::signbit(a) != std::signbit(b)) return kFar;
  }
  // Sign and magnitude of the bit patterns: magnitudes of same-signed values subtract, those of
  // opposite signs add (so -0 and +0 are 0 apart, and the smallest denormals of both signs 2).
  std::uint64_t ma, mb;
  bool na, nb;
  if (as_float) {
    const auto fa = std::bit_cast<std::uint32_t>(static_cast<float>(a));
    const auto fb = std::bit_cast<std::uint32_t>(static_cast<float>(b));
    ma = fa & 0x7fffffffu, mb = fb & 0x7fffffffu;
    na = (fa >> 31) != 0, nb = (fb >> 31) != 0;
  } else {
    const auto da = std::bit_cast<std::uint64_t>(a);
    const auto db = std::bit_cast<std::uint64_t>(b);
    ma = da & ~(1ull << 63), mb = db & ~(1ull << 63);
    na = (da >> 63) != 0, nb = (db >> 63) != 0;
  }
  const std::uint64_t d = na == nb ? (ma > mb ? ma - mb : mb - ma) : ma + mb;
  return d > static_cast<std::uint64_t>(kFar) ? kFar : static_cast<std::int64_t>(d);
}

NumberCheck compare_numbers(const Token& ref, const Token& port, const Tolerance& tol) {
  NumberCheck c;
  if (ref.text == port.text) return c.match = true, c;
  const double r = ref.value, p = port.value;
  if (std::isnan(r) || std::isnan(p)) {
    c.match = std::isnan(r) && std::isnan(p) && tol.nan_equal;
    c.abs_err = c.rel_err = std::numeric_limits<double>::quiet_NaN();
    c.ulps = std::numeric_limits<std::int64_t>::max();
    if (!c.match)
      c.why = std::isnan(r) && std::isnan(p) ? "NaN vs NaN (pass --nan-equal to accept)" : "NaN vs a number";
    return c;
  }
  if (std::isinf(r) || std::isinf(p)) {
    c.match = r == p;
    c.abs_err = c.rel_err = c.match ? 0 : std::numeric_limits<double>::infinity();
    c.ulps = c.match ? 0 : ulp_distance(r, p, tol.ulp_float);
    if (!c.match)
      c.why = std::isinf(r) && std::isinf(p) ? "infinities of opposite sign" : "infinity vs a finite number";
    return c;
  }
  c.abs_err = std::fabs(p - r);
  c.rel_err = r != 0 ? c.abs_err / std::fabs(r) : (c.abs_err == 0 ? 0 : std::numeric_limits<double>::infinity());
  c.ulps = ulp_distance(r, p, tol.ulp_float);
  c.match = c.abs_err <= tol.atol + tol.rtol * std::fabs(r) || (tol.ulp >= 0 && c.ulps <= tol.ulp);
  if (!c.match) c.why = "beyond tolerance";
  return c;
}

namespace {

// What of a reference line is left out of the comparison (compare_with_rerun): all of it, or
// some of its tokens.
struct Mask {
  bool whole = false;
  std::vector<bool> token;
};

CompareResult compare_lines(const std::vector<Line>& rl, const std::vector<Line>& pl, const CompareOptions& options,
                            const std::vector<Mask>* masks) {
  CompareResult res;
  res.lines_ref = rl.size();
  res.lines_port = pl.size();
  auto add = [&](Difference d) {
    ++res.differences;
    if (res.first.size() < options.max_report) res.first.push_back(std::move(d));
  };
  const std::size_t common = std::min(rl.size(), pl.size());
  for (std::size_t i = 0; i < common; ++i) {
    const Mask* mask = masks != nullptr && i < masks->size() ? &(*masks)[i] : nullptr;
    if (mask != nullptr && mask->whole) continue;
    const std::vector<Token> rt = tokenize_line(rl[i].text);
    const std::vector<Token> pt = tokenize_line(pl[i].text);
    const auto left_out = [&](std::size_t k) { return mask != nullptr && k < mask->token.size() && mask->token[k]; };
    bool compared = rt.empty() && pt.empty();
    auto base = [&](std::string kind) {
      Difference d;
      d.kind = std::move(kind);
      d.line = rl[i].number;
      d.ref_line = rl[i].text;
      d.port_line = pl[i].text;
      return d;
    };
    const std::size_t n = std::min(rt.size(), pt.size());
    for (std::size_t k = 0; k < n; ++k) {
      if (left_out(k)) continue;
      compared = true;
      const Token& a = rt[k];
      const Token& b = pt[k];
      if (a.number && b.number) {
        ++res.numbers_compared;
        const NumberCheck c = compare_numbers(a, b, options.tol);
        if (std::isfinite(c.abs_err)) res.max_abs_err = std::max(res.max_abs_err, c.abs_err);
        if (std::isfinite(c.rel_err)) res.max_rel_err = std::max(res.max_rel_err, c.rel_err);
        if (c.match) continue;
        Difference d = base("number");
        d.ref_column = a.column, d.port_column = b.column;
        d.ref = a.text, d.port = b.text;
        d.abs_err = c.abs_err, d.rel_err = c.rel_err, d.ulps = c.ulps, d.why = c.why;
        add(std::move(d));
      } else if (a.number != b.number || a.text != b.text) {
        Difference d = base("text");
        d.ref_column = a.column, d.port_column = b.column;
        d.ref = a.text, d.port = b.text;
        d.why = a.number != b.number ? (a.number ? "number vs text" : "text vs number") : "text differs";
        add(std::move(d));
      }
    }
    if (compared || rt.size() != pt.size()) ++res.lines_compared;
    if (rt.size() != pt.size()) {
      Difference d = base("token-count");
      const bool port_short = pt.size() < rt.size();
      const Token& extra = port_short ? rt[n] : pt[n];
      (port_short ? d.ref_column : d.port_column) = extra.column;
      (port_short ? d.ref : d.port) = extra.text;
      d.why = fmt::format("{} tokens in the reference, {} in the port", rt.size(), pt.size());
      add(std::move(d));
    }
  }
  for (std::size_t i = common; i < rl.size(); ++i) {
    Difference d;
    d.kind = "missing-line";
    d.line = rl[i].number;
    d.ref = d.ref_line = rl[i].text;
    d.why = fmt::format("the port printed {} lines, the reference {}", pl.size(), rl.size());
    add(std::move(d));
  }
  for (std::size_t i = common; i < pl.size(); ++i) {
    Difference d;
    d.kind = "extra-line";
    d.line = pl[i].number;
    d.port = d.port_line = pl[i].text;
    d.why = fmt::format("the port printed {} lines, the reference {}", pl.size(), rl.size());
    add(std::move(d));
  }
  res.equal = res.differences == 0;
  if (!res.equal && rl.size() == pl.size()) {
    std::vector<std::string_view> a, b;
    for (const Line& l : rl) a.push_back(l.text);
    for (const Line& l : pl) b.push_back(l.text);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    res.reordered = a == b;
  }
  return res;
}

bool by_text(const Line& a, const Line& b) { return a.text < b.text; }

}  // namespace

CompareResult compare_outputs(std::string_view ref, std::string_view port, const CompareOptions& options) {
  return compare_lines(split_lines(ref, options.ignore), split_lines(port, options.ignore), options, nullptr);
}

CompareResult compare_with_rerun(std::string_view ref, std::string_view ref2, std::string_view port,
                                 const CompareOptions& options) {
  std::vector<Line> rl = split_lines(ref, options.ignore);
  std::vector<Line> r2 = split_lines(ref2, options.ignore);
  std::vector<Line> pl = split_lines(port, options.ignore);
  if (rl.size() != r2.size()) {
    CompareResult res = compare_lines(rl, pl, options, nullptr);
    res.rechecked = true;
    res.recheck_why = fmt::format("the reference's runs printed {} and {} lines", rl.size(), r2.size());
    return res;
  }
  const auto texts_equal = [](const std::vector<Line>& a, const std::vector<Line>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const Line& x, const Line& y) { return x.text == y.text; });
  };
  bool order_varies = false;
  if (!texts_equal(rl, r2)) {
    std::vector<Line> a = rl, b = r2;
    std::stable_sort(a.begin(), a.end(), by_text);
    std::stable_sort(b.begin(), b.end(), by_text);
    if (texts_equal(a, b)) {
      // The same lines in another order: order does not count; all three compared sorted.
      order_varies = true;
      rl = std::move(a);
      r2 = std::move(b);
      std::stable_sort(pl.begin(), pl.end(), by_text);
    }
  }
  std::vector<Mask> masks(rl.size());
  std::size_t lines = 0, fields = 0;
  for (std::size_t i = 0; i < rl.size(); ++i) {
    if (rl[i].text == r2[i].text) continue;
    const std::vector<Token> a = tokenize_line(rl[i].text);
    const std::vector<Token> b = tokenize_line(r2[i].text);
    Mask& m = masks[i];
    m.whole = a.size() != b.size();
    m.token.assign(a.size(), false);
    std::size_t varied = 0;
    for (std::size_t k = 0; k < a.size() && !m.whole; ++k) {
      if (a[k].number != b[k].number || (!a[k].number && a[k].text != b[k].text)) m.whole = true;
      else if (a[k].number && !compare_numbers(a[k], b[k], options.tol).match) m.token[k] = true, ++varied;
    }
    if (m.whole) ++lines;
    else fields += varied;
  }
  CompareResult res = compare_lines(rl, pl, options, &masks);
  res.rechecked = true;
  res.order_varies = order_varies;
  res.varying_lines = lines;
  res.varying_fields = fields;
  return res;
}

std::string describe_recheck(const CompareResult& r) {
  if (!r.rechecked) return {};
  if (!r.recheck_why.empty()) return r.recheck_why + ": nothing left out";
  std::vector<std::string> what;
  if (r.varying_lines > 0) what.push_back(fmt::format("{} line{}", r.varying_lines, r.varying_lines == 1 ? "" : "s"));
  if (r.varying_fields > 0)
    what.push_back(fmt::format("{} field{}", r.varying_fields, r.varying_fields == 1 ? "" : "s"));
  if (r.order_varies) what.push_back("the order of lines");
  std::string s;
  for (std::size_t i = 0; i < what.size(); ++i) s += (i == 0 ? "" : i + 1 == what.size() ? " and " : ", ") + what[i];
  s = s.empty() ? "nothing varied between runs of the original" : s + " varied between runs of the original";
  return s + fmt::format("; {} line{} compared", r.lines_compared, r.lines_compared == 1 ? "" : "s");
}

namespace {
nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json to_json(const CompareResult& r) {
  nlohmann::json j = {{"equal", r.equal},
                      {"lines_ref", r.lines_ref},
                      {"lines_port", r.lines_port},
                      {"numbers_compared", r.numbers_compared},
                      {"max_abs_err", r.max_abs_err},
                      {"max_rel_err", r.max_rel_err},
                      {"differences", r.differences},
                      {"reordered", r.reordered}};
  if (r.rechecked)
    j["recheck"] = {{"order_varies", r.order_varies},
                    {"varying_lines", r.varying_lines},
                    {"varying_fields", r.varying_fields},
                    {"lines_compared", r.lines_compared},
                    {"why", r.recheck_why},
                    {"note", describe_recheck(r)}};
  nlohmann::json first = nlohmann::json::array();
  for (const Difference& d : r.first) {
    nlohmann::json x = {
        {"kind", d.kind}, {"line", d.line}, {"ref_column", d.ref_column}, {"port_column", d.port_column},
        {"ref", d.ref},   {"port", d.port}, {"ref_line", d.ref_line},     {"port_line", d.port_line},
        {"why", d.why}};
    if (d.kind == "number") {
      x["abs_err"] = number_or_null(d.abs_err);
      x["rel_err"] = number_or_null(d.rel_err);
      x["ulps"] = d.ulps;
    }
    first.push_back(std::move(x));
  }
  j["first"] = std::move(first);
  return j;
}

std::string describe(const Difference& d) {
  std::string s;
  if (d.kind == "number") {
    s = fmt::format("line {}, col {}: {} (reference) vs {} (port): {}", d.line, d.ref_column, d.ref, d.port, d.why);
    if (std::isfinite(d.abs_err)) s += fmt::format(" (abs {:.3g}, rel {:.3g}, {} ulp)", d.abs_err, d.rel_err, d.ulps);
  } else if (d.kind == "text") {
    s = fmt::format("line {}, col {}: '{}' (reference) vs '{}' (port): {}", d.line, d.ref_column, d.ref, d.port, d.why);
  } else if (d.kind == "token-count") {
    s = fmt::format("line {}: {}; first unmatched: '{}'", d.line, d.why, d.ref.empty() ? d.port : d.ref);
  } else if (d.kind == "missing-line") {
    return fmt::format("line {}: missing in the port ({})\n    ref:  {}", d.line, d.why, d.ref_line);
  } else {
    return fmt::format("line {}: extra in the port ({})\n    port: {}", d.line, d.why, d.port_line);
  }
  s += fmt::format("\n    ref:  {}\n    port: {}", d.ref_line, d.port_line);
  return s;
}

}  // namespace ferry::diffrun
