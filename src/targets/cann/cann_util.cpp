#include <cctype>
#include <string>

#include "lex/const_expr.h"
#include "targets/cann/passes.h"

namespace ferry::targets::cann {

using migrate::FileMigration;
using migrate::npos;

std::string squeezed(const FileMigration& f, std::size_t first, std::size_t last) {
  std::string out;
  for (char c : f.span_text(first, last))
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

bool is_default_stream(std::string_view t) {
  return t == "0" || t == "NULL" || t == "nullptr" || t == "cudaStreamLegacy" || t == "(cudaStream_t)0";
}

namespace {
bool is_stream_type(std::string_view t) { return t == "cudaStream_t" || t == "aclrtStream"; }
}  // namespace

std::string visible_stream(const FileMigration& f, std::size_t ci) {
  int depth = 0;
  std::string pending0, local, global;
  for (std::size_t i = 0; i < ci && i < f.code_size(); ++i) {
    if (f.code(i).in_directive) continue;
    const std::string_view t = f.text(i);
    if (t == "{") {
      if (depth == 0) {
        local = pending0;  // a stream parameter of the function whose body starts here
        pending0.clear();
      }
      ++depth;
    } else if (t == "}") {
      if (depth > 0 && --depth == 0) local.clear();
    } else if (t == ";" && depth == 0) {
      if (!pending0.empty()) global = pending0;
      pending0.clear();
    } else if (is_stream_type(t) && !f.is_member_or_qualified(i)) {
      std::size_t n = i + 1;
      if (f.is(n, "&")) ++n;
      if (!f.is_identifier(n)) continue;
      const std::string_view after = n + 1 < f.code_size() ? f.text(n + 1) : std::string_view();
      if (after != ";" && after != "=" && after != "," && after != ")" && after != "{") continue;
      if (depth == 0) pending0 = std::string(f.text(n));
      else local = std::string(f.text(n));
    }
  }
  return local.empty() ? global : local;
}

std::size_t enclosing_body(const FileMigration& f, std::size_t ci) {
  int depth = 0;
  std::size_t open = npos;
  for (std::size_t i = 0; i < ci && i < f.code_size(); ++i) {
    if (f.code(i).in_directive) continue;
    if (f.is(i, "{")) {
      if (depth++ == 0) open = i;
    } else if (f.is(i, "}")) {
      if (depth > 0 && --depth == 0) open = npos;
    }
  }
  return open;
}

std::string line_indent(const FileMigration& f, std::size_t ci) {
  const std::string_view src = f.source();
  std::size_t b = f.code(ci).begin;
  while (b > 0 && src[b - 1] != '\n') --b;
  std::string out;
  while (b < src.size() && (src[b] == ' ' || src[b] == '\t')) out.push_back(src[b++]);
  return out;
}

namespace {

std::string strip_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
  return out;
}

}  // namespace

std::optional<long long> constant_value(std::string_view expr) { return lex::eval_const(expr); }

bool provably_at_least(std::string_view capacity, std::string_view count) {
  if (strip_spaces(capacity) == strip_spaces(count)) return true;
  const auto cap = constant_value(capacity);
  const auto cnt = constant_value(count);
  return cap && cnt && *cap >= *cnt;
}

}  // namespace ferry::targets::cann
