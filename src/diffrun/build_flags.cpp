#include "diffrun/build_flags.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "buildsys/cmake_syntax.h"
#include "buildsys/make_syntax.h"
#include "project/project.h"
#include "verify/plan.h"

namespace fs = std::filesystem;

namespace ferry::diffrun {
namespace {

// NAME or NAME=VALUE with an identifier for NAME and no unexpanded variable anywhere. A reserved
// name (`__HIP_PLATFORM_AMD__`, `__CUDA_ARCH__`) is the compiler's, which the driver defines per side.
bool plain_define(const std::string& d) {
  if (d.empty() || !(std::isalpha(static_cast<unsigned char>(d[0])) || d[0] == '_')) return false;
  if (d.starts_with("__")) return false;
  if (d.find('$') != std::string::npos) return false;
  const std::size_t eq = d.find('=');
  return std::all_of(d.begin(), eq == std::string::npos ? d.end() : d.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

void add_define(const std::string& d, std::vector<std::string>& out) {
  if (plain_define(d) && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
}

// The -DNAME[=VALUE] and `-D NAME` words of one command.
void take_defines(const std::vector<std::string>& words, std::vector<std::string>& out) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "-D" && i + 1 < words.size()) add_define(words[++i], out);
    else if (words[i].size() > 2 && words[i].starts_with("-D")) add_define(words[i].substr(2), out);
  }
}

std::string base_name(const std::string& w) {
  const std::size_t slash = w.find_last_of('/');
  return slash == std::string::npos ? w : w.substr(slash + 1);
}

// Which program a command builds: one that names `main` builds it; one that names only another
// main of the folder builds that one; one that names none may build any.
enum class Builds { kThis, kOther, kAny };
Builds builds(const std::vector<std::string>& words, const std::string& main, const std::vector<std::string>& mains) {
  bool other = false;
  for (const std::string& w : words) {
    const std::string b = base_name(w);
    if (b == main) return Builds::kThis;
    other = other || std::find(mains.begin(), mains.end(), b) != mains.end();
  }
  return other ? Builds::kOther : Builds::kAny;
}

bool is_compiler(const std::string& w) {
  static const std::set<std::string> kNames = {"hipcc", "hipcc.pl", "nvcc",    "gcc",  "g++",       "cc",
                                               "c++",   "clang",    "clang++", "icpx", "amdclang++"};
  static const std::set<std::string> kVars = {"CXX", "CC", "HIPCC", "NVCC", "HIP_CXX"};
  if (kNames.contains(base_name(w))) return true;
  std::string v = w;
  if (v.starts_with("${") && v.ends_with("}")) v = v.substr(2, v.size() - 3);
  else if (v.starts_with("$(") && v.ends_with(")")) v = v.substr(2, v.size() - 3);
  else if (v.starts_with("$")) v = v.substr(1);
  else return false;
  return kVars.contains(v);
}

// A dependency listing (`$(CXX) -M $(CXXFLAGS) $<`, `-MM`) compiles nothing: its macros are not the build's.
bool lists_dependencies(const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [](const std::string& w) { return w == "-M" || w == "-MM"; });
}

}  // namespace

std::vector<std::string> script_defines(std::string_view script, const std::string& main,
                                        const std::vector<std::string>& mains) {
  std::vector<std::string> out;
  std::string command;
  std::size_t pos = 0;
  while (pos <= script.size()) {
    std::size_t nl = script.find('\n', pos);
    if (nl == std::string_view::npos) nl = script.size();
    std::string line(script.substr(pos, nl - pos));
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') {
      if (command.empty()) continue;
      line.clear();
    }
    if (!line.empty() && line.back() == '\\') {  // a continued command
      line.pop_back();
      command += line + " ";
      continue;
    }
    command += line;
    // A comment after the command (` # ...`); commands in these scripts do not quote a '#'.
    if (const std::size_t hash = command.find(" #"); hash != std::string::npos) command.erase(hash);
    std::vector<std::string> words = verify::split_command(command);
    command.clear();
    if (words.empty() || words[0] == "echo" || words[0] == "printf") continue;
    if (std::none_of(words.begin(), words.end(), is_compiler) || lists_dependencies(words)) continue;
    if (builds(words, main, mains) == Builds::kThis) take_defines(words, out);
  }
  return out;
}

std::vector<std::string> makefile_defines(std::string_view makefile, const std::string& main,
                                          const std::vector<std::string>& mains) {
  std::vector<std::string> out;
  int depth = 0;               // open conditionals: their branches are options, not the default build
  Builds rule = Builds::kAny;  // what the current rule's target and prerequisites name
  for (const buildsys::make::LogicalLine& l : buildsys::make::logical_lines(makefile)) {
    if (l.verbatim) continue;
    const std::vector<std::string> words = buildsys::make::split_words(l.text.substr(0, l.code_end)).words;
    if (words.empty()) continue;
    if (!l.recipe) {
      const std::string& w0 = words[0];
      if (w0 == "ifeq" || w0 == "ifneq" || w0 == "ifdef" || w0 == "ifndef") {
        ++depth;
        continue;
      }
      if (w0 == "endif") {
        depth = std::max(0, depth - 1);
        continue;
      }
      if (depth > 0 || w0 == "else") continue;
      // An assignment (NAME = ..., ?=, :=, +=) applies to every program; a rule line sets what
      // its recipe builds.
      static const std::regex kAssignment(R"(^\s*(?:(?:export|override)\s+)*[A-Za-z_][\w.-]*\s*(?:\?|::?|\+|!)?=)");
      const std::string code(l.text.substr(0, l.code_end));
      const bool assignment = std::regex_search(code, kAssignment);
      if (!assignment) {
        if (l.text.find(':') != std::string_view::npos) rule = builds(words, main, mains);
        continue;
      }
      if (builds(words, main, mains) != Builds::kOther) take_defines(words, out);
      continue;
    }
    if (depth > 0 || lists_dependencies(words)) continue;
    Builds b = builds(words, main, mains);
    if (b == Builds::kAny) b = rule;
    if (b != Builds::kOther) take_defines(words, out);
  }
  return out;
}

std::vector<std::string> cmake_defines(std::string_view cmakelists, const std::string& main,
                                       const std::vector<std::string>& mains) {
  std::vector<buildsys::CMakeCommand> cmds;
  try {
    cmds = buildsys::parse_cmake(cmakelists);
  } catch (const std::exception&) {
    return {};
  }
  auto text_of = [](const buildsys::CMakeArg& a) -> std::string {
    if (a.bracket) return "$";  // never a plain definition
    if (a.quoted && a.text.size() >= 2) return a.text.substr(1, a.text.size() - 2);
    return a.text;
  };
  // The targets `main` is a source of, and the commands outside if() blocks and function or macro
  // bodies (a branch or a definition is not the build as it runs by default).
  std::set<std::string> targets;
  std::vector<const buildsys::CMakeCommand*> top;
  int depth = 0;
  for (const buildsys::CMakeCommand& c : cmds) {
    if (c.name == "if" || c.name == "function" || c.name == "macro") ++depth;
    else if (c.name == "endif" || c.name == "endfunction" || c.name == "endmacro") depth = std::max(0, depth - 1);
    else if (depth == 0) top.push_back(&c);
  }
  for (const buildsys::CMakeCommand* c : top) {
    if (c->name != "add_executable" || c->args.empty()) continue;
    std::vector<std::string> words;
    for (const buildsys::CMakeArg& a : c->args) words.push_back(text_of(a));
    if (builds(words, main, mains) == Builds::kThis) targets.insert(words[0]);
  }
  std::vector<std::string> out;
  for (const buildsys::CMakeCommand* c : top) {
    if (c->name == "add_definitions") {
      for (const buildsys::CMakeArg& a : c->args)
        if (const std::string t = text_of(a); t.starts_with("-D")) add_define(t.substr(2), out);
    } else if (c->name == "add_compile_definitions") {
      for (const buildsys::CMakeArg& a : c->args) {
        const std::string t = text_of(a);
        add_define(t.starts_with("-D") ? t.substr(2) : t, out);
      }
    } else if (c->name == "target_compile_definitions" && !c->args.empty() && targets.contains(text_of(c->args[0]))) {
      bool own = true;  // INTERFACE items are for the target's users, not the target
      for (std::size_t i = 1; i < c->args.size(); ++i) {
        const std::string t = text_of(c->args[i]);
        if (t == "PUBLIC" || t == "PRIVATE" || t == "INTERFACE") {
          own = t != "INTERFACE";
          continue;
        }
        if (own) add_define(t.starts_with("-D") ? t.substr(2) : t, out);
      }
    }
  }
  return out;
}

std::string read_or_empty(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return {};
  try {
    return project::read_file(p);
  } catch (const std::exception&) {
    return {};
  }
}

FolderDefines folder_defines(const fs::path& dir, const std::string& main, const std::vector<std::string>& mains) {
  std::vector<fs::path> scripts;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".sh") scripts.push_back(e.path());
  std::sort(scripts.begin(), scripts.end());
  for (const fs::path& s : scripts)
    if (std::vector<std::string> d = script_defines(read_or_empty(s), main, mains); !d.empty())
      return {std::move(d), s.filename().string()};
  if (std::vector<std::string> d = makefile_defines(read_or_empty(dir / "Makefile"), main, mains); !d.empty())
    return {std::move(d), "Makefile"};
  if (std::vector<std::string> d = cmake_defines(read_or_empty(dir / "CMakeLists.txt"), main, mains); !d.empty())
    return {std::move(d), "CMakeLists.txt"};
  return {};
}

}  // namespace ferry::diffrun
