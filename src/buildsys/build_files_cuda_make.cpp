// HIP -> CUDA Makefiles (docs/build-files.md, "The other way"); shared pieces in to_cuda.h.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "buildsys/make_syntax.h"
#include "buildsys/roundtrip_record.h"
#include "buildsys/text_edits.h"
#include "buildsys/to_cuda.h"

namespace ferry::buildsys {

using namespace to_cuda;

// ------------------------------------------------------------------------------------------
// Makefiles
// ------------------------------------------------------------------------------------------
namespace {

// $(NAME), ${NAME}, $(NAME:a=b) referenced in `s`.
std::vector<std::string> var_refs(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    if (s[i] != '$' || (s[i + 1] != '(' && s[i + 1] != '{')) continue;
    std::size_t k = i + 2;
    while (k < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' || s[k] == '.' || s[k] == '-'))
      ++k;
    if (k > i + 2 && k < s.size() && (s[k] == ')' || s[k] == '}' || s[k] == ':'))
      out.emplace_back(s.substr(i + 2, k - i - 2));
  }
  return out;
}
// "$(NAME)" / "${NAME}" exactly (a leading @ or - is allowed, as recipes write them).
std::string whole_ref(std::string_view w) {
  while (!w.empty() && (w.front() == '@' || w.front() == '-' || w.front() == '+')) w.remove_prefix(1);
  if (w.size() < 4 || w[0] != '$' || !((w[1] == '(' && w.back() == ')') || (w[1] == '{' && w.back() == '}'))) return {};
  const std::string_view n = w.substr(2, w.size() - 3);
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return {};
  return std::string(n);
}

struct Assignment {
  std::string name;
  std::size_t value_begin;  // offset of the value in the line's code
};
// `[override|export] NAME op value`; nullopt for rules, directives and recipes.
std::optional<Assignment> parse_assignment(std::string_view code) {
  std::size_t i = 0;
  auto skip_ws = [&] {
    while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  };
  skip_ws();
  for (std::string_view kw : {"override ", "export ", "private "})
    if (starts_with(code.substr(i), kw)) i += kw.size(), skip_ws();
  const std::size_t nb = i;
  while (i < code.size() &&
         (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '_' || code[i] == '.' || code[i] == '-'))
    ++i;
  if (i == nb) return std::nullopt;
  Assignment a{std::string(code.substr(nb, i - nb)), 0};
  skip_ws();
  for (std::string_view op : {"::=", ":=", "+=", "?=", "!=", "="})
    if (starts_with(code.substr(i), op)) {
      i += op.size();
      skip_ws();
      a.value_begin = i;
      return a;
    }
  return std::nullopt;
}

bool is_directive(std::string_view code) {
  std::size_t i = 0;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  const std::string_view c = code.substr(i);
  for (std::string_view d : {"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
                             "vpath", "unexport", "undefine"})
    if (starts_with(c, d) && (c.size() == d.size() || c[d.size()] == ' ' || c[d.size()] == '\t' || c[d.size()] == '(' ||
                              c[d.size()] == '\n'))
      return true;
  return false;
}

bool is_source_name(std::string_view w) {
  for (std::string_view e : {".cpp", ".cc", ".cxx", ".C", ".hip", ".c++"})
    if (w.ends_with(e)) return true;
  return false;
}

// ifeq (A, B) / ifeq "A" "B" / ifneq ...: the two operands.
std::optional<std::pair<std::string, std::string>> conditional_operands(std::string_view code) {
  std::size_t i = 0;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  std::string_view c = code.substr(i);
  if (starts_with(c, "else ")) c.remove_prefix(5);
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  if (starts_with(c, "ifeq")) c.remove_prefix(4);
  else if (starts_with(c, "ifneq")) c.remove_prefix(5);
  else return std::nullopt;
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
      s = s.substr(1, s.size() - 2);
    return std::string(s);
  };
  if (!c.empty() && c.front() == '(') {
    int depth = 0;
    std::size_t comma = std::string_view::npos, close = std::string_view::npos;
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (c[k] == '(') ++depth;
      else if (c[k] == ')' && --depth == 0) {
        close = k;
        break;
      } else if (c[k] == ',' && depth == 1 && comma == std::string_view::npos) comma = k;
    }
    if (comma == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
    return std::make_pair(trim(c.substr(1, comma - 1)), trim(c.substr(comma + 1, close - comma - 1)));
  }
  const make::Words w = make::split_words(c);
  if (w.words.size() < 2) return std::nullopt;
  return std::make_pair(trim(w.words[0]), trim(w.words[1]));
}

bool is_nvidia_platform_word(std::string_view w) {
  return w == "CUDA" || w == "cuda" || w == "nvcc" || w == "NVCC" || w == "nvidia" || w == "NVIDIA";
}
bool is_amd_platform_value(std::string_view v) {
  return v == "HIP" || v == "hip" || v == "amd" || v == "AMD" || v == "hcc" || v == "HCC" ||
         v.find("hipconfig") != std::string_view::npos;
}

// A ROCm install prefix: /opt/rocm, /opt/rocm-6.2.0 (a trailing slash allowed).
bool is_rocm_prefix(std::string_view v) {
  while (v.size() > 1 && v.back() == '/') v.remove_suffix(1);
  if (v == "/opt/rocm") return true;
  if (!v.starts_with("/opt/rocm-") || v.size() == 10) return false;
  return std::all_of(v.begin() + 10, v.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

// The ROCm prefix in a word, as the CUDA toolkit's: `/opt/rocm` -> `/usr/local/cuda`, and
// `P/lib` -> `P/lib64` where P is that prefix or a variable holding it (`$(ROCM_PATH)/lib`).
// A host-compiler build (CXX = g++ linking -lcublas) finds cuda_runtime.h and the CUDA libraries
// there; nvcc builds find them anyway. Empty when the word names no ROCm prefix.
std::string cuda_prefix_word(std::string_view w, const std::set<std::string>& prefix_vars) {
  std::string_view head = w, tail;
  if (const std::size_t slash = w.find('/', w.starts_with("/") ? 1 : 0); slash != std::string_view::npos) {
    // "/opt/rocm/lib": the prefix is everything before the last component of a known tail.
    for (std::string_view t : {std::string_view("/lib/"), std::string_view("/lib"), std::string_view("/include/"),
                               std::string_view("/include")})
      if (w.ends_with(t)) {
        head = w.substr(0, w.size() - t.size());
        tail = t;
        break;
      }
    if (tail.empty() && !is_rocm_prefix(w)) return "";
  }
  std::string out;
  if (is_rocm_prefix(head)) {
    out = "/usr/local/cuda";
  } else {
    const std::string ref = whole_ref(head);
    if (ref.empty() || !prefix_vars.contains(ref) || tail.empty()) return "";
    out = std::string(head);
  }
  if (tail.starts_with("/lib")) out += tail.ends_with("/") ? "/lib64/" : "/lib64";
  else out += tail;
  return out;
}

}  // namespace

Result migrate_makefile_to_cuda(const std::string& rel, std::string_view text, const Options& o) {
  Result r;
  const Restored restored = restore_recorded(rel, text, "flags", r);
  const std::string src = restored.text;
  const std::vector<make::LogicalLine> lines = make::logical_lines(src);
  auto is_restored = [&](const make::LogicalLine& l) {
    for (const auto& [b, e] : restored.restored)
      if (l.begin >= b && l.begin < e) return true;
    return false;
  };

  // ---- what the file says: assignments, rules, recipes, conditionals
  struct LineInfo {
    std::optional<Assignment> assign;
    make::Words words;            // of the code part (recipes, rules) or of the value (assignments)
    std::size_t rule = SIZE_MAX;  // for a recipe line: the line index of its rule
  };
  std::vector<LineInfo> info(lines.size());
  std::map<std::string, std::vector<std::size_t>> assigns;  // name -> line indices
  std::map<std::string, std::string> selector;              // platform variable -> its NVIDIA value
  std::size_t current_rule = SIZE_MAX;
  // A tab-led line is a recipe only after a rule; before the first rule (or after an assignment)
  // make reads it as an ordinary line (`\tCXXFLAGS += -x cu` inside an ifeq block).
  std::vector<bool> recipe(lines.size(), false);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const make::LogicalLine& l = lines[i];
    if (l.verbatim) continue;
    std::string_view code = l.text.substr(0, l.code_end);
    if (l.recipe && current_rule == SIZE_MAX) {
      code = l.text;  // not a recipe: '#' starts a comment again
      const std::size_t hash = code.find('#');
      if (hash != std::string_view::npos) code = code.substr(0, hash);
    }
    recipe[i] = l.recipe && current_rule != SIZE_MAX;
    if (recipe[i]) {
      info[i].words = make::split_words(code);
      info[i].rule = current_rule;
      continue;
    }
    if (auto ops = conditional_operands(code)) {
      for (auto [a, b] : {*ops, std::make_pair(ops->second, ops->first)}) {
        const std::string v = whole_ref(a);
        if (!v.empty() && is_nvidia_platform_word(b) && !selector.contains(v)) selector[v] = b;
      }
    }
    if (is_directive(code)) continue;
    if ((info[i].assign = parse_assignment(code))) {
      info[i].words = make::split_words(code.substr(info[i].assign->value_begin));
      assigns[info[i].assign->name].push_back(i);
      current_rule = SIZE_MAX;
      continue;
    }
    if (code.find(':') != std::string_view::npos) {
      info[i].words = make::split_words(code);
      current_rule = i;
    }
  }
  // Variables whose value is the compiler (HIPCC = /opt/rocm/bin/hipcc, CXX = $(HIPCC), NVCC = nvcc).
  std::set<std::string> compilers;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, at] : assigns) {
      if (compilers.contains(name)) continue;
      for (std::size_t i : at) {
        const auto& ws = info[i].words.words;
        if (!ws.empty() && (is_hipcc_word(ws[0]) || is_nvcc_word(ws[0]) || compilers.contains(whole_ref(ws[0])))) {
          compilers.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  auto is_compiler_word = [&](const std::string& w) {
    return is_hipcc_word(w) || is_nvcc_word(w) || compilers.contains(whole_ref(w));
  };
  // Recipe words that belong to an nvcc command: from the compiler word to the next shell separator.
  std::vector<std::vector<bool>> in_nvcc(lines.size());
  std::set<std::string> nvcc_refs, host_refs;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!recipe[i]) continue;
    const auto& ws = info[i].words.words;
    in_nvcc[i].assign(ws.size(), false);
    bool on = false;
    for (std::size_t k = 0; k < ws.size(); ++k) {
      if (ws[k] == "&&" || ws[k] == "||" || ws[k] == ";" || ws[k] == "|") on = false;
      else if (is_compiler_word(ws[k])) on = true;
      in_nvcc[i][k] = on;
      for (const std::string& v : var_refs(ws[k])) (on ? nvcc_refs : host_refs).insert(v);
      if (!ws[k].empty() && ws[k].back() == ';') on = false;
    }
  }
  // make's built-in rules compile with $(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c.
  if (compilers.contains("CXX")) nvcc_refs.insert({"CXXFLAGS", "CPPFLAGS", "TARGET_ARCH", "LDFLAGS", "LDLIBS"});
  if (compilers.contains("CC")) nvcc_refs.insert({"CFLAGS", "CPPFLAGS", "TARGET_ARCH", "LDFLAGS", "LDLIBS"});
  auto close_over = [&](std::set<std::string>& s) {
    for (bool grew = true; grew;) {
      grew = false;
      for (const std::string& v : std::vector<std::string>(s.begin(), s.end()))
        if (auto it = assigns.find(v); it != assigns.end())
          for (std::size_t i : it->second)
            for (const std::string& w : info[i].words.words)
              for (const std::string& ref : var_refs(w)) grew = s.insert(ref).second || grew;
    }
  };
  close_over(nvcc_refs);
  close_over(host_refs);
  // Variables that already carry -x cu (or -x hip, mapped to it).
  std::set<std::string> has_x;
  for (const auto& [name, at] : assigns)
    for (std::size_t i : at) {
      const auto& ws = info[i].words.words;
      for (std::size_t k = 0; k + 1 < ws.size(); ++k)
        if (ws[k] == "-x" && (ws[k + 1] == "cu" || ws[k + 1] == "hip")) has_x.insert(name);
    }

  // A variable whose value names source files, directly or through whole references
  // (SOURCES = main.cpp, SRC = $(SOURCES), SRCS = $(wildcard *.cpp)); not $(SOURCES:.cpp=.o).
  std::function<bool(const std::string&, int)> var_has_sources = [&](const std::string& name, int depth) {
    if (depth > 8) return false;
    const auto it = assigns.find(name);
    if (it == assigns.end()) return false;
    for (std::size_t a : it->second)
      for (const std::string& v : info[a].words.words) {
        std::string_view x = v;
        if (x.ends_with(')') && x.find('(') == std::string_view::npos) x.remove_suffix(1);  // $(wildcard *.cpp)
        if (is_source_name(x)) return true;
        if (const std::string ref = whole_ref(v); !ref.empty() && var_has_sources(ref, depth + 1)) return true;
      }
    return false;
  };

  // A recipe's nvcc command compiles a source file (hipcc compiled .cpp as HIP; nvcc needs -x cu).
  auto prereq_sources = [&](std::size_t rule, bool first_only) {
    if (rule == SIZE_MAX) return false;
    const auto& ws = info[rule].words.words;
    std::size_t k = 0;
    while (k < ws.size() && ws[k].find(':') == std::string::npos) ++k;
    if (k == ws.size()) return false;
    std::vector<std::string> pre;
    const std::string& colon_word = ws[k];
    const std::size_t c = colon_word.find_last_of(':');
    if (c + 1 < colon_word.size()) pre.push_back(colon_word.substr(c + 1));
    for (++k; k < ws.size() && ws[k] != "|" && ws[k] != ";"; ++k) pre.push_back(ws[k]);
    for (const std::string& p : pre) {
      bool src_p = is_source_name(p);
      if (!src_p)
        if (auto it = assigns.find(whole_ref(p)); it != assigns.end())
          for (std::size_t i : it->second)
            for (const std::string& w : info[i].words.words) src_p = src_p || is_source_name(w);
      if (src_p) return true;
      if (first_only) return false;
    }
    return false;
  };

  // ---- rewrite, line by line
  // The branches of a runtime switch (`ifeq ($(GPU_RUNTIME), CUDA)`) are the authors' own builds
  // for each platform: left as written; the selector flips (below).
  const std::vector<bool> in_switch = make::runtime_switch_lines(lines);
  const std::string arch = cuda_arch(o);
  // Variables that hold the ROCm install prefix (ROCM_PATH ?= /opt/rocm).
  std::set<std::string> prefix_vars;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (info[i].assign && info[i].words.words.size() == 1 && is_rocm_prefix(info[i].words.words[0]))
      prefix_vars.insert(info[i].assign->name);
  bool changed = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const make::LogicalLine& l = lines[i];
    if (l.verbatim || is_restored(l) || in_switch[i] ||
        (!recipe[i] && !info[i].assign && info[i].words.words.empty())) {
      r.output += l.text;
      continue;
    }
    const make::Words& w = info[i].words;
    std::vector<std::string> mapped;
    if (recipe[i]) {
      mapped.assign(w.words.begin(), w.words.end());
      // Map each stretch: nvcc commands with host flags wrapped, the rest without.
      for (std::size_t k = 0; k < w.words.size();) {
        std::size_t e = k;
        while (e < w.words.size() && in_nvcc[i][e] == in_nvcc[i][k]) ++e;
        const std::vector<std::string> part(w.words.begin() + static_cast<long>(k),
                                            w.words.begin() + static_cast<long>(e));
        const auto m = map_hipcc_words(part, o, rel, l.line, r.diagnostics, in_nvcc[i][k]);
        if (in_nvcc[i][k]) {
          bool has_x_here = false, compiles = false, many_sources = false;
          std::vector<std::size_t> source_words;  // in `part`: a source file, $< or $(SOURCES)
          for (std::size_t j = 0; j < part.size(); ++j) {
            has_x_here = has_x_here || part[j] == "-x" || part[j] == "-xhip";
            for (const std::string& v : var_refs(part[j])) {
              std::set<std::string> c{v};
              close_over(c);
              for (const std::string& x : c) has_x_here = has_x_here || has_x.contains(x);
            }
            const bool one_source = (is_source_name(part[j]) && (j == 0 || part[j - 1] != "-o")) ||
                                    (!whole_ref(part[j]).empty() && (j == 0 || part[j - 1] != "-o") &&
                                     var_has_sources(whole_ref(part[j]), 0)) ||
                                    (part[j] == "$<" && prereq_sources(info[i].rule, true));
            if (one_source) source_words.push_back(j);
            compiles = compiles || one_source ||
                       (part[j].find("$<") != std::string::npos && prereq_sources(info[i].rule, true)) ||
                       ((part[j].find("$^") != std::string::npos || part[j].find("$+") != std::string::npos) &&
                        prereq_sources(info[i].rule, false));
            many_sources =
                many_sources || part[j].find("$^") != std::string::npos || part[j].find("$+") != std::string::npos;
          }
          // -x applies to every input of an nvcc command: a .a/.o/.so input beside the source breaks it.
          auto is_binary_input = [](std::string_view x) {
            return x.ends_with(".a") || x.ends_with(".o") || x.ends_with(".so") || x.ends_with(".obj");
          };
          bool binary_inputs = false;
          std::vector<bool> binary(part.size(), false);
          for (std::size_t j = 0; j < part.size(); ++j) {
            if (j > 0 && part[j - 1] == "-o") continue;
            binary[j] = is_binary_input(part[j]) && part[j][0] != '-';
            const std::string ref = whole_ref(part[j]);
            if (!ref.empty() && (j == 0 || part[j - 1] != "-o"))
              if (auto it = assigns.find(ref); it != assigns.end())
                for (std::size_t a : it->second)
                  for (const std::string& v : info[a].words.words) binary[j] = binary[j] || is_binary_input(v);
            binary_inputs = binary_inputs || binary[j];
          }
          std::copy(m.begin(), m.end(), mapped.begin() + static_cast<long>(k));
          // One source beside .a/.o inputs: compile it on its own (-x cu -c), then link its object
          // with the rest, in the same recipe line. The object is named after the target ($@).
          const bool split = compiles && !has_x_here && binary_inputs && !many_sources && source_words.size() == 1 &&
                             !mapped[k].empty() && (source_words[0] == 0 || !binary[source_words[0]]);
          if (split) {
            std::string compile = mapped[k] + " -x cu -c";
            for (std::size_t j = 1; j < part.size(); ++j) {
              if (binary[j] || m[j].empty()) continue;
              if (part[j] == "-o" || (part[j - 1] == "-o")) continue;
              if (part[j] == "-c") continue;
              compile += " " + m[j];
            }
            std::string link_cc = mapped[k];
            while (!link_cc.empty() && (link_cc.front() == '@' || link_cc.front() == '-' || link_cc.front() == '+'))
              link_cc.erase(0, 1);
            mapped[k] = compile + " -o $@.ferry.o && " + link_cc;
            mapped[k + source_words[0]] = "$@.ferry.o";
            r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                                         "nvcc command split in two: '" + part[source_words[0]] +
                                             "' is compiled on its own with -x cu (to $@.ferry.o), then linked with "
                                             "the .a/.o inputs (-x applies to every input of a command)"));
          } else if (compiles && !has_x_here && binary_inputs) {
            r.diagnostics.push_back(
                diag(Diag::BuildMixedInputs, Severity::Warning, rel, l.line,
                     "this nvcc command compiles a .cpp/.hip source and takes .a/.o inputs: nvcc "
                     "needs -x cu for the source, and -x applies to every input",
                     "compile the source in its own command (nvcc -x cu -c), then link the objects"));
          } else if (compiles && !has_x_here && !mapped[k].empty()) {
            mapped[k] += " -x cu";
            r.diagnostics.push_back(
                diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                     "'-x cu' added: hipcc compiles .cpp/.hip sources as HIP, nvcc only .cu as CUDA"));
          }
        } else {
          std::copy(m.begin(), m.end(), mapped.begin() + static_cast<long>(k));
        }
        k = e;
      }
    } else if (info[i].assign) {
      const std::string& name = info[i].assign->name;
      const bool host = nvcc_refs.contains(name) && !host_refs.contains(name);
      mapped = map_hipcc_words(w.words, o, rel, l.line, r.diagnostics, host);
      // A platform selector that already has an NVIDIA branch: select it.
      if (auto it = selector.find(name);
          it != selector.end() && w.words.size() == 1 && is_amd_platform_value(w.words[0])) {
        r.diagnostics.push_back(
            diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                 name + " = " + w.words[0] + " -> " + it->second + " (the file's own NVIDIA branch is selected)"));
        mapped[0] = it->second;
      }
    } else {
      mapped = map_hipcc_words(w.words, o, rel, l.line, r.diagnostics, false);
    }
    for (std::size_t k = 0; k < mapped.size() && k < w.words.size(); ++k) {
      if (mapped[k] != w.words[k]) continue;  // already mapped (hipcc, a library, a flag)
      const std::string& word = w.words[k];
      const bool glued = word.size() > 2 && (word.starts_with("-L") || word.starts_with("-I"));  // -L/opt/rocm/lib
      std::string to = cuda_prefix_word(std::string_view(word).substr(glued ? 2 : 0), prefix_vars);
      if (!to.empty() && glued) to = word.substr(0, 2) + to;
      if (to.empty() || to == w.words[k]) continue;
      r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                                   "'" + w.words[k] + "' -> '" + to +
                                       "' (the ROCm install prefix becomes the CUDA toolkit's, whose libraries are "
                                       "in lib64)"));
      mapped[k] = std::move(to);
    }
    std::size_t code_end = l.code_end;
    if (l.recipe && !recipe[i]) code_end = std::min(l.text.find('#'), l.text.size());
    const std::string_view code = l.text.substr(0, code_end);
    std::string line_out = info[i].assign ? std::string(code.substr(0, info[i].assign->value_begin)) : std::string();
    line_out += make::join_words(w, mapped);
    line_out += l.text.substr(code_end);
    // $(CXX) is nvcc now: make's built-in .cpp rule must compile as CUDA too.
    if (info[i].assign && info[i].assign->name == "CXX" && compilers.contains("CXX") && assigns["CXX"].back() == i &&
        !assigns.contains("COMPILE.cc")) {
      if (!line_out.ends_with('\n')) line_out += '\n';
      line_out +=
          "# ferry: nvcc compiles .cpp files as host C++ (hipcc compiled them as HIP): make's built-in rule uses -x cu\n"
          "COMPILE.cc = $(CXX) -x cu $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c\n";
      r.diagnostics.push_back(diag(Diag::BuildMapped, Severity::Note, rel, l.line,
                                   "CXX is nvcc: make's built-in .cpp rule gets -x cu (COMPILE.cc)"));
    }
    changed = changed || line_out != l.text;
    r.output += line_out;
  }
  if (changed || !restored.restored.empty())
    r.diagnostics.push_back(
        diag(Diag::BuildMovedToolchain, Severity::Note, rel, 0,
             "Makefile moved to nvcc and the CUDA libraries (" + arch + ", CUDA " + version(o).str() + ")",
             "build it with make; nvcc must be on PATH (e.g. /usr/local/cuda/bin)"));
  return r;
}

}  // namespace ferry::buildsys
