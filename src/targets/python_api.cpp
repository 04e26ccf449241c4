#include "targets/python_api.h"

#include <cctype>
#include <cstdlib>

#include "core/split.h"
#include "core/text.h"

namespace ferry::targets {

namespace {

bool positional_ref(std::string_view s, int* n) {
  if (s.size() < 2 || s[0] != '@') return false;
  for (char c : s.substr(1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  *n = std::stoi(std::string(s.substr(1)));
  return true;
}

}  // namespace

std::vector<ArgOp> parse_arg_ops(std::string_view text, std::string* error) {
  std::vector<ArgOp> out;
  text = trim(text);
  if (text.empty() || text == "-") return out;
  for (std::string_view part : split(text, ';')) {
    part = trim(part);
    if (part.empty()) continue;
    ArgOp op;
    bool ok = false;
    int pos = -1;
    if (const std::size_t set = part.find(":="); set != std::string_view::npos) {
      const std::string_view lhs = part.substr(0, set);
      op.to = std::string(part.substr(set + 2));
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::SetPositional;
        op.position = pos;
        ok = !op.to.empty();
      } else {
        op.kind = ArgOp::Kind::Set;
        op.from = std::string(lhs);
        ok = is_identifier(op.from) && !op.to.empty();
      }
    } else if (part.front() == '+') {
      const std::size_t eq = part.find('=');
      if (eq != std::string_view::npos) {
        op.kind = ArgOp::Kind::Add;
        op.optional = part.size() > 1 && part[1] == '?';
        op.from = std::string(part.substr(op.optional ? 2 : 1, eq - (op.optional ? 2 : 1)));
        op.to = std::string(part.substr(eq + 1));
        ok = is_identifier(op.from) && !op.to.empty();
      }
    } else if (const std::size_t pct = part.find('%'); pct != std::string_view::npos) {
      op.kind = ArgOp::Kind::WrapKeyword;
      op.from = std::string(part.substr(0, pct));
      const std::string_view target = part.substr(pct + 1);
      const std::size_t dot = target.rfind('.');
      if (dot != std::string_view::npos) {
        op.func = std::string(target.substr(0, dot));
        op.param = std::string(target.substr(dot + 1));
        ok = is_identifier(op.from) && is_identifier(op.param) && !op.func.empty();
      }
    } else if (const std::size_t arrow = part.find("->"); arrow != std::string_view::npos) {
      const std::string_view lhs = part.substr(0, arrow);
      op.to = std::string(part.substr(arrow + 2));
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::Positional;
        op.position = pos;
      } else {
        op.kind = ArgOp::Kind::Rename;
        op.from = std::string(lhs);
      }
      ok = is_identifier(op.to) && (pos >= 0 || is_identifier(op.from));
    } else if (part.size() > 5 && part.substr(part.size() - 5) == "=drop") {
      const std::string_view lhs = part.substr(0, part.size() - 5);
      if (positional_ref(lhs, &pos)) {
        op.kind = ArgOp::Kind::DropPositional;
        op.position = pos;
        ok = true;
      } else {
        op.kind = ArgOp::Kind::Drop;
        op.from = std::string(lhs);
        ok = is_identifier(op.from);
      }
    }
    if (!ok) {
      if (error) *error += "malformed argument operation '" + std::string(part) + "'; ";
      continue;
    }
    out.push_back(std::move(op));
  }
  return out;
}

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
