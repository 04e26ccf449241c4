#include "targets/python_api.h"

#include <cstdlib>

#include "core/split.h"
#include "core/text.h"

namespace ferry::targets {

bool ApiEntry::takes(std::string_view keyword) const {
  if (!params_known) return true;
  for (const std::string& p : params)
    if (p == keyword || (p.size() > 2 && p.rfind("**", 0) == 0)) return true;
  return false;
}

bool ApiEntry::takes_positionals(std::size_t n) const {
  if (!params_known) return true;
  std::size_t named = 0;
  for (const std::string& p : params) {
    if (p.rfind("*", 0) == 0 && p.rfind("**", 0) != 0) return true;  // *args
    if (p.rfind("**", 0) != 0) ++named;
  }
  return n <= named;
}

void read_api_table(std::string_view text, std::string_view path, std::map<std::string, ApiEntry, std::less<>>& out,
                    std::vector<std::string>& problems) {
  for (std::string_view line : split_lines(text)) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    if (trim(line).empty() || line.front() == '#') continue;
    const std::vector<std::string_view> f = split(line, '\t');
    if (f.size() != 3) {
      problems.push_back(std::string(path) + ": expected 3 fields: " + std::string(line));
      continue;
    }
    ApiEntry e;
    e.kind = std::string(trim(f[1]));
    const std::string_view params = trim(f[2]);
    e.params_known = params != "-";
    if (e.params_known && !params.empty())
      for (std::string_view p : split(params, ',')) e.params.emplace_back(trim(p));
    out.emplace(std::string(trim(f[0])), std::move(e));
  }
}

std::optional<pyparse::Tree> parse_script(migrate::FileMigration& file, std::string_view target) {
  std::string error;
  std::optional<pyparse::Tree> tree = pyparse::Tree::parse(file.source(), &error);
  if (!tree) {
    file.diag_at_line(Diag::MsNoParser, 1, 1, "the " + std::string(target) + " target cannot read Python: " + error,
                      "install libtree-sitter-dev and npm, then rebuild ferry (make deps && make build)");
    return std::nullopt;
  }
  if (!tree->first_error().empty()) {
    file.diag_at_line(Diag::MsSyntax, 1, 1,
                      "not converted: the file does not parse as Python (" + tree->first_error() + ")",
                      "fix the syntax (Python 3), or exclude the file");
    return std::nullopt;
  }
  return tree;
}

std::string expand_arguments(const std::string& expr, const pyparse::CallArgs& a, const pyparse::Tree& t,
                             const std::function<std::string(int)>& render) {
  std::string out;
  for (std::size_t i = 0; i < expr.size(); ++i) {
    if (expr[i] != '{') {
      out += expr[i];
      continue;
    }
    const std::size_t close = expr.find('}', i);
    if (close == std::string::npos) return {};
    const std::string alt = expr.substr(i + 1, close - i - 1);
    std::string got;
    std::size_t start = 0;
    while (got.empty() && start <= alt.size()) {
      std::size_t bar = alt.find('|', start);
      if (bar == std::string::npos) bar = alt.size();
      const std::string one = alt.substr(start, bar - start);
      if (!one.empty() && one[0] == '@') {
        const std::size_t k = static_cast<std::size_t>(std::atoi(one.c_str() + 1));
        if (k < a.positional.size()) got = render(a.positional[k]);
      } else if (auto kw = a.keywords.find(one); kw != a.keywords.end()) {
        got = render(t.child(kw->second, "value"));
      }
      start = bar + 1;
    }
    if (got.empty()) return {};
    out += got;
    i = close;
  }
  return out;
}

}  // namespace ferry::targets
