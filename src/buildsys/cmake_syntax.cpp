#include "buildsys/cmake_syntax.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace ferry::buildsys {

namespace {

// Length of a bracket opener "[==[" at s[i], or 0. `eq` gets the number of '='.
std::size_t bracket_open(std::string_view s, std::size_t i, std::size_t& eq) {
  if (i >= s.size() || s[i] != '[') return 0;
  std::size_t k = i + 1;
  while (k < s.size() && s[k] == '=') ++k;
  if (k < s.size() && s[k] == '[') {
    eq = k - i - 1;
    return k - i + 1;
  }
  return 0;
}
std::size_t bracket_close(std::string_view s, std::size_t from, std::size_t eq) {
  const std::string close = "]" + std::string(eq, '=') + "]";
  const std::size_t p = s.find(close, from);
  if (p == std::string_view::npos) throw std::runtime_error("unterminated bracket argument or comment");
  return p + close.size();
}

}  // namespace

std::vector<CMakeCommand> parse_cmake(std::string_view s) {
  std::vector<CMakeCommand> cmds;
  std::size_t i = 0;
  std::uint32_t line = 1;
  auto advance_to = [&](std::size_t to) {
    line += static_cast<std::uint32_t>(
        std::count(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(to), '\n'));
    i = to;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '#') {
      std::size_t eq = 0;
      if (bracket_open(s, i + 1, eq)) advance_to(bracket_close(s, i + 1, eq));
      else advance_to(std::min(s.size(), s.find('\n', i) == std::string_view::npos ? s.size() : s.find('\n', i)));
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      advance_to(i + 1);
      continue;
    }
    CMakeCommand cmd;
    cmd.begin = i;
    cmd.line = line;
    std::size_t k = i;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_')) ++k;
    cmd.name = std::string(s.substr(i, k - i));
    std::transform(cmd.name.begin(), cmd.name.end(), cmd.name.begin(), [](unsigned char x) { return std::tolower(x); });
    advance_to(k);
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) advance_to(i + 1);
    if (i >= s.size() || s[i] != '(')
      throw std::runtime_error("line " + std::to_string(cmd.line) + ": '(' expected after " + cmd.name);
    advance_to(i + 1);
    int depth = 1;
    while (depth > 0) {
      if (i >= s.size()) throw std::runtime_error("line " + std::to_string(cmd.line) + ": unbalanced parentheses");
      const char d = s[i];
      std::size_t eq = 0;
      if (d == ' ' || d == '\t' || d == '\n' || d == '\r') {
        advance_to(i + 1);
      } else if (d == '#') {
        if (bracket_open(s, i + 1, eq)) advance_to(bracket_close(s, i + 1, eq));
        else advance_to(s.find('\n', i) == std::string_view::npos ? s.size() : s.find('\n', i));
      } else if (d == '(') {
        ++depth;
        cmd.args.push_back({"(", i, i + 1, false, false});
        advance_to(i + 1);
      } else if (d == ')') {
        if (--depth > 0) cmd.args.push_back({")", i, i + 1, false, false});
        advance_to(i + 1);
      } else if (d == '"') {
        std::size_t e = i + 1;
        while (e < s.size() && s[e] != '"') e += s[e] == '\\' ? 2 : 1;
        if (e >= s.size()) throw std::runtime_error("line " + std::to_string(line) + ": unterminated quoted argument");
        cmd.args.push_back({std::string(s.substr(i, e + 1 - i)), i, e + 1, true, false});
        advance_to(e + 1);
      } else if (bracket_open(s, i, eq)) {
        const std::size_t e = bracket_close(s, i, eq);
        cmd.args.push_back({std::string(s.substr(i, e - i)), i, e, false, true});
        advance_to(e);
      } else {
        std::size_t e = i;
        int gdepth = 0;  // generator expressions and ${} may hold anything but spaces
        while (e < s.size()) {
          const char x = s[e];
          if (x == '\\' && e + 1 < s.size()) {
            e += 2;
            continue;
          }
          if (x == '"') {  // quoted part inside an unquoted argument: a"b c"d
            std::size_t q = e + 1;
            while (q < s.size() && s[q] != '"') q += s[q] == '\\' ? 2 : 1;
            e = std::min(s.size(), q + 1);
            continue;
          }
          if (x == '$' && e + 1 < s.size() && (s[e + 1] == '<' || s[e + 1] == '{')) ++gdepth;
          else if (gdepth > 0 && (x == '>' || x == '}')) --gdepth;
          if (gdepth == 0 && (x == ' ' || x == '\t' || x == '\n' || x == '\r' || x == '(' || x == ')' || x == '#'))
            break;
          ++e;
        }
        cmd.args.push_back({std::string(s.substr(i, e - i)), i, e, false, false});
        advance_to(e);
      }
    }
    cmd.end = i;
    cmds.push_back(std::move(cmd));
  }
  return cmds;
}

std::vector<bool> runtime_switch_commands(const std::vector<CMakeCommand>& cmds) {
  auto unquoted = [](const CMakeArg& a) {
    return a.quoted && a.text.size() >= 2 ? std::string_view(a.text).substr(1, a.text.size() - 2)
                                          : std::string_view(a.text);
  };
  auto platform = [](std::string_view v) { return v == "CUDA" || v == "cuda" || v == "HIP" || v == "hip"; };
  auto variable = [](std::string_view v) {
    if (v.size() > 3 && v.starts_with("${") && v.ends_with("}")) v = v.substr(2, v.size() - 3);
    return !v.empty() && v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
                             std::string_view::npos;
  };
  auto is_switch = [&](const CMakeCommand& c) {
    for (std::size_t k = 0; k + 2 < c.args.size(); ++k)
      if (c.args[k + 1].text == "STREQUAL" && variable(unquoted(c.args[k])) && platform(unquoted(c.args[k + 2])))
        return true;
    return false;
  };
  std::vector<bool> in(cmds.size(), false);
  std::vector<bool> open;  // per open if: a runtime switch
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    const CMakeCommand& c = cmds[i];
    const bool inside = std::find(open.begin(), open.end(), true) != open.end();
    if (c.name == "if") {
      in[i] = inside;
      open.push_back(is_switch(c));
    } else if (c.name == "elseif" || c.name == "else") {
      if (!open.empty() && c.name == "elseif") open.back() = static_cast<bool>(open.back()) || is_switch(c);
      in[i] = open.size() > 1 && std::find(open.begin(), open.end() - 1, true) != open.end() - 1;
    } else if (c.name == "endif") {
      if (!open.empty()) open.pop_back();
      in[i] = std::find(open.begin(), open.end(), true) != open.end();
    } else {
      in[i] = inside;
    }
  }
  return in;
}

}  // namespace ferry::buildsys
