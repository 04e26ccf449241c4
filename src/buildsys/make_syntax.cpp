#include "buildsys/make_syntax.h"

#include <algorithm>

namespace ferry::buildsys::make {
namespace {
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
}  // namespace

std::vector<LogicalLine> logical_lines(std::string_view text) {
  std::vector<LogicalLine> out;
  std::size_t pos = 0;
  std::uint32_t line_no = 1;
  bool in_define = false;
  while (pos < text.size()) {
    std::size_t end = pos;
    while (true) {
      const std::size_t nl = text.find('\n', end);
      if (nl == std::string_view::npos) {
        end = text.size();
        break;
      }
      std::size_t bs = 0;
      for (std::size_t k = nl; k > pos && text[k - 1] == '\\'; --k) ++bs;
      end = nl + 1;
      if (bs % 2 == 0) break;
    }
    LogicalLine l;
    l.text = text.substr(pos, end - pos);
    l.begin = pos;
    l.line = line_no;
    l.lines = static_cast<std::uint32_t>(std::count(l.text.begin(), l.text.end(), '\n'));
    if (l.lines == 0) l.lines = 1;
    line_no += static_cast<std::uint32_t>(std::count(l.text.begin(), l.text.end(), '\n'));
    pos = end;

    std::string_view trimmed = l.text;
    while (!trimmed.empty() && trimmed.front() == ' ') trimmed.remove_prefix(1);
    l.recipe = !l.text.empty() && l.text.front() == '\t';
    if (starts_with(trimmed, "define ")) in_define = true;
    l.code_end = l.text.size();
    if (in_define) {
      if (starts_with(trimmed, "endef")) in_define = false;
      l.verbatim = true;
    } else if (!l.recipe && starts_with(trimmed, "#")) {
      l.verbatim = true;
    } else if (!l.recipe) {
      for (std::size_t k = 0; k < l.text.size(); ++k)
        if (l.text[k] == '#' && (k == 0 || l.text[k - 1] != '\\')) {
          l.code_end = k;
          break;
        }
    }
    out.push_back(l);
  }
  return out;
}

Words split_words(std::string_view code) {
  Words w;
  auto is_gap = [&](std::size_t at) {
    return code[at] == ' ' || code[at] == '\t' || code[at] == '\n' ||
           (code[at] == '\\' && at + 1 < code.size() && code[at + 1] == '\n');
  };
  std::string gap;
  std::size_t k = 0;
  while (k < code.size()) {
    if (is_gap(k)) {
      const std::size_t n = code[k] == '\\' ? 2 : 1;
      gap += code.substr(k, n);
      k += n;
      continue;
    }
    w.gaps.push_back(std::move(gap));
    gap.clear();
    const std::size_t b = k;
    int depth = 0;  // $(...) and ${...} stay one word
    while (k < code.size() && (depth > 0 || !is_gap(k))) {
      if (code[k] == '$' && k + 1 < code.size() && (code[k + 1] == '(' || code[k + 1] == '{')) {
        ++depth;
        ++k;
      } else if (depth > 0 && (code[k] == ')' || code[k] == '}')) {
        --depth;
      }
      ++k;
    }
    w.words.emplace_back(code.substr(b, k - b));
  }
  w.tail = std::move(gap);
  return w;
}

std::string join_words(const Words& w, const std::vector<std::string>& mapped) {
  std::string out;
  for (std::size_t i = 0; i < w.words.size(); ++i) {
    if (mapped[i].empty()) {
      if (w.gaps[i].find('\n') != std::string::npos) out += w.gaps[i];
      continue;
    }
    out += w.gaps[i];
    out += mapped[i];
  }
  out += w.tail;
  return out;
}

namespace {
std::string_view trim_blanks(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\n' || v.front() == '\r'))
    v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\n' || v.back() == '\r'))
    v.remove_suffix(1);
  return v;
}
// `ifeq ($(V), CUDA)`, `else ifneq "$(V)" "HIP"`, ...: whether one operand is a whole variable
// reference and the other a platform's name.
bool switch_condition(std::string_view c) {
  if (c.starts_with("ifeq")) c.remove_prefix(4);
  else if (c.starts_with("ifneq")) c.remove_prefix(5);
  else return false;
  c = trim_blanks(c);
  std::string_view a, b;
  if (c.starts_with('(')) {
    int depth = 0;
    std::size_t comma = std::string_view::npos, close = std::string_view::npos;
    for (std::size_t k = 0; k < c.size() && close == std::string_view::npos; ++k) {
      if (c[k] == '(') ++depth;
      else if (c[k] == ')' && --depth == 0) close = k;
      else if (c[k] == ',' && depth == 1 && comma == std::string_view::npos) comma = k;
    }
    if (comma == std::string_view::npos || close == std::string_view::npos) return false;
    a = trim_blanks(c.substr(1, comma - 1));
    b = trim_blanks(c.substr(comma + 1, close - comma - 1));
  } else {
    const Words w = split_words(c);
    if (w.words.size() < 2) return false;
    a = w.words[0];
    b = w.words[1];
  }
  auto unquote = [](std::string_view v) {
    return v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front() ? v.substr(1, v.size() - 2)
                                                                                             : v;
  };
  auto whole_ref = [](std::string_view v) {
    return v.size() > 3 && v[0] == '$' && ((v[1] == '(' && v.back() == ')') || (v[1] == '{' && v.back() == '}')) &&
           v.find_first_of("$(){}", 2) == v.size() - 1;
  };
  auto platform = [](std::string_view v) { return v == "CUDA" || v == "cuda" || v == "HIP" || v == "hip"; };
  a = unquote(a);
  b = unquote(b);
  return (whole_ref(a) && platform(b)) || (whole_ref(b) && platform(a));
}
}  // namespace

std::vector<bool> runtime_switch_lines(const std::vector<LogicalLine>& lines) {
  std::vector<bool> in(lines.size(), false);
  std::vector<bool> open;  // per open conditional: a runtime switch
  auto any = [&] { return std::find(open.begin(), open.end(), true) != open.end(); };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LogicalLine& l = lines[i];
    std::string_view c = trim_blanks(l.text.substr(0, l.verbatim ? l.text.size() : l.code_end));
    if (l.verbatim || l.recipe) {  // a comment, a define block or a tab-led line: inside or not
      in[i] = any();
      continue;
    }
    auto word = [&](std::string_view kw) {
      return c.starts_with(kw) && (c.size() == kw.size() || c[kw.size()] == ' ' || c[kw.size()] == '\t' ||
                                   c[kw.size()] == '(' || c[kw.size()] == '"' || c[kw.size()] == '\'');
    };
    if (word("ifeq") || word("ifneq") || word("ifdef") || word("ifndef")) {
      open.push_back(switch_condition(c));
      in[i] = any();
    } else if (word("else")) {
      if (!open.empty()) open.back() = static_cast<bool>(open.back()) || switch_condition(trim_blanks(c.substr(4)));
      in[i] = any();
    } else if (word("endif")) {
      in[i] = any();
      if (!open.empty()) open.pop_back();
    } else {
      in[i] = any();
    }
  }
  return in;
}

}  // namespace ferry::buildsys::make
