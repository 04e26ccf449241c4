// What the Python targets (mindspore, tf_npu) read off a parsed file the same way: a call's
// arguments, the lines `# ferry: ignore` comments exclude, and the line geometry of a byte offset.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyparse/tree.h"

namespace ferry::pyparse {

// The arguments of a `call` node.
struct CallArgs {
  int list = -1;                        // the argument_list node, or -1
  std::vector<int> positional;          // before any *args / **kwargs
  std::map<std::string, int> keywords;  // name -> keyword_argument node
  bool splat = false;                   // a *args or **kwargs is passed
  std::vector<int> all;                 // every argument, in order (comments left out)
};

[[nodiscard]] inline CallArgs call_arguments(const Tree& t, int call_node) {
  CallArgs a;
  a.list = t.child(call_node, "arguments");
  if (a.list < 0 || t.type(a.list) != "argument_list") return a;
  for (int c : t.named_children(a.list)) {
    const std::string_view type = t.type(c);
    if (type == "comment") continue;
    a.all.push_back(c);
    if (type == "keyword_argument") a.keywords[std::string(t.text(t.child(c, "name")))] = c;
    else if (type == "list_splat" || type == "dictionary_splat") a.splat = true;
    else if (!a.splat) a.positional.push_back(c);
  }
  return a;
}

// The byte ranges that remove the arguments `gone` of a call's list with their commas, each run of
// neighbours at once; all of them: the inside of the parentheses (a trailing comma too).
[[nodiscard]] inline std::vector<std::pair<std::uint32_t, std::uint32_t>> argument_removals(const Tree& t,
                                                                                            const CallArgs& a,
                                                                                            const std::set<int>& gone) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::size_t n = a.all.size();
  for (std::size_t i = 0; i < n;) {
    if (!gone.count(a.all[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < n && gone.count(a.all[j + 1])) ++j;
    if (i == 0 && j + 1 == n) out.emplace_back(t.at(a.list).begin + 1, t.at(a.list).end - 1);
    else if (j + 1 < n) out.emplace_back(t.at(a.all[i]).begin, t.at(a.all[j + 1]).begin);
    else out.emplace_back(t.at(a.all[i - 1]).end, t.at(a.all[j]).end);
    i = j + 1;
  }
  return out;
}

// The lines a `# ferry: ignore` comment (its own line) or `# ferry: ignore-next-line` (the next)
// excludes from conversion.
[[nodiscard]] inline std::set<std::uint32_t> ignored_lines(const Tree& t) {
  std::set<std::uint32_t> lines;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const int n = static_cast<int>(i);
    if (t.type(n) != "comment") continue;
    const std::string_view c = t.text(n);
    const std::size_t at = c.find("ferry:");
    if (at == std::string_view::npos) continue;
    std::string_view rest = c.substr(at + 6);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.rfind("ignore-next-line", 0) == 0) lines.insert(t.at(n).line + 1);
    else if (rest.rfind("ignore", 0) == 0) lines.insert(t.at(n).line);
  }
  return lines;
}

// The offset of the start of the line holding byte `at` of `src`.
[[nodiscard]] inline std::uint32_t line_start(std::string_view src, std::uint32_t at) {
  while (at > 0 && src[at - 1] != '\n') --at;
  return at;
}

// The blanks that indent the line holding byte `at`.
[[nodiscard]] inline std::string indent_of(std::string_view src, std::uint32_t at) {
  const std::uint32_t ls = line_start(src, at);
  std::uint32_t e = ls;
  while (e < src.size() && (src[e] == ' ' || src[e] == '\t')) ++e;
  return std::string(src.substr(ls, e - ls));
}

}  // namespace ferry::pyparse
