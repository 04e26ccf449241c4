// Imports: every torch import read into an alias map (imports), and the MindSpore import block
// the output uses, its names spelled short where the block binds them (the import block).
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

// PyTorch, and TensorFlow / Keras (their names spelled canonically: tf.keras.layers.Dense).
bool Converter::torch_module(std::string_view q) {
  for (std::string_view p : {"torch", "torchvision", "torchaudio", "torchtext", "tensorflow", "keras"})
    if (pyparse::module_under(q, p)) return true;
  return false;
}

void Converter::collect_imports(int n) {
  imp_.collect(t_, n, torch_module);
  for (const auto& [alias, q] : imp_.aliases)
    if (q.rfind("torch", 0) == 0) torch_file_ = true;
}

void Converter::collect_identifiers() {
  std::function<void(int, bool)> walk = [&](int n, bool in_import) {
    const bool imp = in_import || type(n) == "import_statement" || type(n) == "import_from_statement";
    if (type(n) == "identifier" && !imp) {
      const int p = t_.at(n).parent;
      const bool member = type(p) == "attribute" && t_.child(p, "attribute") == n;  // x.nn is no binding
      const bool keyword = type(p) == "keyword_argument" && t_.child(p, "name") == n;
      const std::string id(text(n));
      if (!imp_.aliases.count(id) && !member && !keyword) other_identifiers_.insert(id);
    }
    for (int c : t_.children(n)) walk(c, imp);
  };
  walk(t_.root(), false);
}

// The torch name a reference resolves to ("nn.Linear" → "torch.nn.Linear"), or "".
std::string Converter::resolve(int n) const {
  std::string q = imp_.resolve(t_, n);
  if (!q.empty() && q.rfind("torch", 0) != 0) q = pyparse::canonical_tensorflow_name(q);
  return q;
}

std::vector<Converter::Spelling> Converter::spellings() const {
  return {
      {"mindspore.dataset", "ds", "import mindspore.dataset as ds", "import mindspore.dataset"},
      {"mindspore.nn", "nn", "from mindspore import nn", "import mindspore.nn"},
      {"mindspore.ops", "ops", "from mindspore import ops", "import mindspore.ops"},
      {"mindspore.mint", "mint", "from mindspore import mint", "import mindspore.mint"},
      {"mindspore", "ms", "import mindspore as ms", "import mindspore"},
  };
}

void Converter::finish_imports() {
  // which torch imports stay: those whose names are still used by code left as written
  std::set<int> removable;
  for (const ImportStmt& st : imp_.statements) {
    bool keep = false;
    for (const std::string& a : st.aliases)
      if (a.empty() || a == "*" || kept_aliases_.count(a)) keep = true;
    if (!keep) removable.insert(st.node);
  }
  std::set<std::string> still_bound;  // torch aliases kept
  for (const ImportStmt& st : imp_.statements)
    if (!removable.count(st.node))
      for (const std::string& a : st.aliases) still_bound.insert(a);
  // decide each spelling
  std::set<std::string> needed;
  for (const LocalEdit& e : edits_) collect_emitted(e.text, needed);
  for (const std::string& n : used_ms_) needed.insert(n);
  std::vector<std::string> lines;
  for (const Spelling& sp : spellings()) {
    bool used = false;
    for (const std::string& n : needed)
      if (prefix_of(sp.prefix, n) && best_prefix(n) == sp.prefix) used = true;
    if (!used) continue;
    const bool clash =
        other_identifiers_.count(sp.alias) || still_bound.count(sp.alias) || imp_.other_bindings.count(sp.alias);
    short_[sp.prefix] = !clash;
    lines.push_back(clash ? sp.fallback_import : sp.import_line);
  }
  // `from mindspore import nn, ops`: one line
  std::vector<std::string> from_names, others;
  for (const std::string& l : lines) {
    if (l.rfind("from mindspore import ", 0) == 0) from_names.push_back(l.substr(22));
    else others.push_back(l);
  }
  std::vector<std::string> block;
  for (const std::string& l : others)
    if (l == "import mindspore as ms" || l == "import mindspore") block.push_back(l);
  if (!from_names.empty()) {
    std::string l = "from mindspore import ";
    for (std::size_t i = 0; i < from_names.size(); ++i) l += (i ? ", " : "") + from_names[i];
    block.push_back(l);
  }
  for (const std::string& l : others)
    if (l != "import mindspore as ms" && l != "import mindspore") block.push_back(l);
  if (imp_.statements.empty()) return;
  bool placed = block.empty();
  for (const ImportStmt& st : imp_.statements) {
    const bool at_module = type(t_.at(st.node).parent) == "module";
    const std::string ind = indent_of(t_.at(st.node).begin);
    std::string text_block;
    if (!placed && at_module)
      for (const std::string& l : block) text_block += ind + l + "\n";
    if (removable.count(st.node) && text_block.empty() && remove_statement(st.node, false)) continue;
    if (removable.count(st.node)) {
      if (auto lines = whole_lines(st.node)) {
        if (add(lines->first, lines->second, text_block)) {
          if (!text_block.empty()) placed = true;
          continue;
        }
      }
    }
    if (!text_block.empty()) {
      const std::uint32_t ls = line_start(t_.at(st.node).begin);
      if (add(ls, ls, text_block)) placed = true;
    }
  }
  if (!placed) {
    std::string text_block;
    for (const std::string& l : block) text_block += l + "\n";
    add(0, 0, text_block);
  }
}

bool Converter::prefix_of(const std::string& p, const std::string& n) {
  return n == p || (n.size() > p.size() && n.rfind(p, 0) == 0 && n[p.size()] == '.');
}

std::string Converter::best_prefix(const std::string& n) const {
  for (const Spelling& sp : spellings())
    if (prefix_of(sp.prefix, n)) return sp.prefix;
  return {};
}

void Converter::collect_emitted(const std::string& text, std::set<std::string>& out) {
  for (std::size_t i = text.find('\x01'); i != std::string::npos; i = text.find('\x01', i + 1)) {
    const std::size_t e = text.find('\x02', i);
    if (e == std::string::npos) break;
    out.insert(text.substr(i + 1, e - i - 1));
  }
}

std::string Converter::spell(const std::string& n) const {
  const std::string p = best_prefix(n);
  auto it = short_.find(p);
  if (it == short_.end() || !it->second) return n;
  for (const Spelling& sp : spellings())
    if (sp.prefix == p) return sp.alias + n.substr(p.size());
  return n;
}

std::string Converter::spell_all(const std::string& text) const {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t s = text.find('\x01', i);
    if (s == std::string::npos) {
      out.append(text, i, std::string::npos);
      break;
    }
    const std::size_t e = text.find('\x02', s);
    out.append(text, i, s - i);
    out += spell(text.substr(s + 1, e - s - 1));
    i = e + 1;
  }
  return out;
}

}  // namespace ferry::targets::mindspore::convert_detail
