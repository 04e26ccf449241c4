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

}  // namespace ferry::buildsys::make
