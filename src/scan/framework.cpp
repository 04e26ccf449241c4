// Framework coverage: the PyTorch API uses of a Python file, judged by the PyTorch -> MindSpore
// mapping tables (rules/torch2mindspore/*.tsv, embedded). Import aliases are resolved per file
// (`import torch.nn as nn`, `import torch.nn.functional as F`, `from torch import optim`,
// `from torch.nn import Linear`); a dotted chain that starts with an alias is one use, named by
// the longest prefix a table row knows. Method calls (`x.view(...)`) count when only the Tensor,
// Module or Optimizer tables know the name, as kind "method": scan does not know the receiver's
// type (docs/scan.md, "Framework coverage"). TensorFlow and Keras uses count the same way, by
// their canonical names (tf.keras.layers.Dense) in rules/tf2mindspore/*.tsv; the method rows apply
// only in files that import PyTorch.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/split.h"
#include "lex/python_lexer.h"
#include "pyparse/imports.h"
#include "rules/builtin.h"
#include "scan/scan.h"

namespace ferry::scan {
namespace {

struct Row {
  std::string mindspore;  // "-" when unsupported
  std::string status;     // same | diff | unsupported
};

struct MappingTables {
  std::unordered_map<std::string, Row> rows;
  std::set<std::string> modules;                         // every proper prefix of a row name: "torch", "torch.nn", ...
  std::unordered_map<std::string, std::string> methods;  // method name -> row name
};

constexpr std::string_view kFamilies[] = {"functions", "tensor", "nn", "functional", "optim", "data", "misc"};

// Python's own container and string methods: a call of one of these is not taken for a tensor's.
bool python_method(std::string_view n) {
  static const std::set<std::string_view> names = {
      "add",        "append", "clear",  "close",      "copy",  "count",  "decode",  "discard", "encode", "endswith",
      "extend",     "find",   "format", "get",        "group", "index",  "insert",  "items",   "join",   "keys",
      "lower",      "match",  "open",   "pop",        "read",  "remove", "replace", "reverse", "round",  "search",
      "setdefault", "sort",   "split",  "startswith", "strip", "update", "upper",   "values",  "write",  "apply"};
  return names.contains(n);
}

MappingTables load_tables() {
  MappingTables t;
  std::vector<std::string> paths;
  for (std::string_view fam : kFamilies) paths.push_back("torch2mindspore/" + std::string(fam) + ".tsv");
  // TensorFlow / Keras rows (canonical names: tf.keras.layers.Dense); core.tsv first, as it wins
  paths.emplace_back("tf2mindspore/generated.tsv");
  paths.emplace_back("tf2mindspore/core.tsv");
  for (const std::string& path : paths) {
    for (std::string_view line : table_rows(rules::builtin_table(path))) {
      const std::vector<std::string_view> f = split(line, '\t');
      if (f.size() < 3) continue;  // rules/check_mindspore_rules.py keeps the tables well-formed
      std::string name(f[0]);
      t.rows[name] = Row{std::string(f[1]), std::string(f[2])};
      for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1))
        t.modules.insert(name.substr(0, dot));
    }
  }
  // Methods: the receiver's class is unknown. A name the Tensor table knows is taken for a
  // tensor's (`x.to(device)`, `x.float()` are far more common than the module's); else the
  // Optimizer's (`zero_grad`, `step`), else the Module's (`train`, `eval`, `parameters`).
  for (std::string_view cls : {"torch.Tensor.", "torch.optim.Optimizer.", "torch.nn.Module."}) {
    for (const auto& [name, row] : t.rows) {
      if (!name.starts_with(cls)) continue;
      const std::string method = name.substr(cls.size());
      if (method.find('.') != std::string::npos || python_method(method)) continue;
      t.methods.emplace(method, name);  // the first class in the list keeps the name
    }
  }
  return t;
}

const MappingTables& tables() {
  static const MappingTables t = load_tables();  // immutable after the first call
  return t;
}

bool lower_contains(std::string_view s, std::string_view what) {
  std::string low(s);
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return low.find(what) != std::string::npos;
}

bool torch_root(std::string_view full) {
  for (std::string_view r : {"torch", "torchvision", "torchaudio", "torchtext"})
    if (full == r || (full.starts_with(r) && full.size() > r.size() && full[r.size()] == '.')) return true;
  return false;
}

// The frameworks whose uses are counted: PyTorch, and TensorFlow / Keras (their names spelled
// canonically by pyparse::canonical_tensorflow_name, as the mindspore target looks them up).
bool framework_root(std::string_view full) {
  return torch_root(full) || pyparse::module_under(full, "tensorflow") || pyparse::module_under(full, "keras");
}

struct Tok {
  lex::py::Kind kind;
  std::string_view text;
  std::uint32_t line, col;
  bool newline_before;  // a logical line starts here
};

std::vector<Tok> tokens(std::string_view src) {
  std::vector<Tok> out;
  bool nl = true;
  for (const lex::py::Token& t : lex::py::tokenize(src)) {
    if (t.kind == lex::py::Kind::Newline && t.depth == 0) nl = true;
    if (lex::py::is_trivia(t.kind)) continue;
    out.push_back({t.kind, t.text(src), t.line, t.col, nl});
    nl = false;
  }
  return out;
}

// A dotted name starting at toks[i]; i is moved past it.
std::string dotted(const std::vector<Tok>& toks, std::size_t& i) {
  std::string s;
  while (i < toks.size() && toks[i].kind == lex::py::Kind::Name) {
    s += toks[i].text;
    if (i + 2 < toks.size() && toks[i + 1].text == "." && toks[i + 2].kind == lex::py::Kind::Name) {
      s += '.';
      i += 2;
    } else {
      ++i;
      break;
    }
  }
  return s;
}

bool ends_statement(const std::vector<Tok>& toks, std::size_t i) {
  return i >= toks.size() || toks[i].newline_before || toks[i].text == ";";
}

// Reads an import statement at toks[i] ("import" or "from") into `aliases`; returns the index
// after it.
std::size_t read_import(const std::vector<Tok>& toks, std::size_t i, std::map<std::string, std::string>& aliases) {
  if (toks[i].text == "import") {
    ++i;
    while (!ends_statement(toks, i)) {
      const std::string mod = dotted(toks, i);
      if (mod.empty()) break;
      if (i + 1 < toks.size() && toks[i].text == "as" && !ends_statement(toks, i)) {
        if (framework_root(mod)) aliases[std::string(toks[i + 1].text)] = mod;
        i += 2;
      } else if (framework_root(mod)) {
        const std::string head = mod.substr(0, mod.find('.'));
        aliases[head] = head;  // `import torch.nn` binds `torch`
      }
      if (i < toks.size() && toks[i].text == "," && !toks[i].newline_before) ++i;
      else break;
    }
    return i;
  }
  // from MOD import a [as b], ... (parenthesised or not)
  ++i;
  if (i < toks.size() && toks[i].text == ".") return i;  // relative import: the project's own code
  const std::string mod = dotted(toks, i);
  if (i >= toks.size() || toks[i].text != "import") return i;
  ++i;
  const bool paren = i < toks.size() && toks[i].text == "(";
  if (paren) ++i;
  while (i < toks.size() && (paren ? toks[i].text != ")" : !ends_statement(toks, i))) {
    if (toks[i].kind != lex::py::Kind::Name) {
      ++i;
      continue;
    }
    const std::string name(toks[i].text);
    std::string bound = name;
    ++i;
    if (i + 1 < toks.size() && toks[i].text == "as") {
      bound = std::string(toks[i + 1].text);
      i += 2;
    }
    if (framework_root(mod)) aliases[bound] = mod + "." + name;
  }
  return i;
}

}  // namespace

std::vector<FrameworkUse> framework_uses(const std::string& rel, std::string_view python_text) {
  const MappingTables& t = tables();
  const std::vector<Tok> toks = tokens(python_text);
  std::map<std::string, std::string> aliases;  // bound name -> torch name
  std::vector<FrameworkUse> out;
  auto record = [&](const Tok& at, const std::string& name, std::string kind) {
    FrameworkUse u{rel, at.line, at.col, name, std::move(kind), "unmapped", ""};
    if (auto it = t.rows.find(name); it != t.rows.end() && it->second.status != "unsupported") {
      u.status = it->second.status;
      u.mindspore = it->second.mindspore;
    }
    out.push_back(std::move(u));
  };
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const Tok& tk = toks[i];
    if (tk.kind != lex::py::Kind::Name) continue;
    const bool after_dot = i > 0 && toks[i - 1].text == ".";
    if (!after_dot && tk.newline_before && (tk.text == "import" || tk.text == "from")) {
      i = read_import(toks, i, aliases) - 1;
      continue;
    }
    if (after_dot) {
      // a method call whose name only the Tensor/Module/Optimizer tables know (in a file that imports
      // PyTorch: a TensorFlow dataset's .repeat() is not torch.Tensor.repeat)
      const bool torch_file =
          std::any_of(aliases.begin(), aliases.end(), [](const auto& a) { return torch_root(a.second); });
      if (!torch_file || i + 1 >= toks.size() || toks[i + 1].text != "(") continue;
      const auto m = t.methods.find(std::string(tk.text));
      if (m == t.methods.end()) continue;
      std::string name = m->second;
      // `scheduler.step()`: the receiver's name tells an LR scheduler from an optimizer
      if (tk.text == "step" && i >= 2 && lower_contains(toks[i - 2].text, "sched"))
        name = "torch.optim.lr_scheduler.LRScheduler.step";
      record(tk, name, "method");
      continue;
    }
    const auto a = aliases.find(std::string(tk.text));
    if (a == aliases.end()) continue;
    if (i + 1 < toks.size() && toks[i + 1].text == "=") continue;  // rebinding the alias
    std::size_t j = i;
    const std::string chain = dotted(toks, j);
    std::string full = a->second + chain.substr(tk.text.size());
    if (!torch_root(full)) full = pyparse::canonical_tensorflow_name(full);
    // A class spelled through the private module that defines it is its public name:
    // torch.nn.modules.linear.Linear is torch.nn.Linear, torch.utils.data.dataloader.DataLoader
    // is torch.utils.data.DataLoader, torch.optim.adam.Adam is torch.optim.Adam.
    for (std::string_view pkg : {"torch.nn.modules.", "torch.utils.data.", "torch.optim."}) {
      if (!full.starts_with(pkg) || t.rows.contains(full)) continue;
      const std::size_t dot = full.find('.', pkg.size());
      if (dot == std::string::npos) continue;
      std::string pub = std::string(pkg == "torch.nn.modules." ? "torch.nn." : pkg) + full.substr(dot + 1);
      if (pkg == "torch.nn.modules." || t.rows.contains(pub)) full = std::move(pub);
    }
    i = j - 1;
    // the longest prefix a row knows; else the whole chain (unmapped), unless it names a module
    std::string name = full;
    for (std::string p = full;; p = p.substr(0, p.rfind('.'))) {
      if (t.rows.contains(p)) {
        name = p;
        break;
      }
      if (p.find('.') == std::string::npos) break;
    }
    if (!t.rows.contains(name) && (t.modules.contains(name) || name.find('.') == std::string::npos)) continue;
    record(tk, name, "api");
  }
  return out;
}

FrameworkCoverage framework_coverage(std::vector<FrameworkUse> uses) {
  FrameworkCoverage c;
  std::stable_sort(uses.begin(), uses.end(), [](const FrameworkUse& a, const FrameworkUse& b) {
    return std::tie(a.file, a.line, a.col) < std::tie(b.file, b.line, b.col);
  });
  std::set<std::string> files;
  for (const FrameworkUse& u : uses) {
    ++c.uses;
    files.insert(u.file);
    if (u.status == "same") {
      ++c.same;
    } else if (u.status == "diff") {
      ++c.diff;
      c.effort.hours += 0.1;  // review the documented difference
    } else {
      ++c.unmapped;
      // a person writes the MindSpore code: once per distinct API, then a little per repeat
      c.effort.hours += c.unmapped_names[u.name]++ == 0 ? 1.0 : 0.1;
    }
  }
  c.files = files.size();
  c.effort.level = c.uses == 0 ? "none" : overall_level(c.effort.hours);
  c.list = std::move(uses);
  return c;
}

}  // namespace ferry::scan
