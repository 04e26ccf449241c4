// PyTorch → MindSpore for one Python file, on tree-sitter-python's tree (pyparse/tree.h).
//
// Rules are data (rules/torch2mindspore/*.tsv: names, keyword operations, notes); what depends on
// the program's structure is code, here:
//   imports      every torch import is read into an alias map (nn → torch.nn, F →
//                torch.nn.functional, DataLoader → torch.utils.data.DataLoader), so a reference
//                resolves however it is spelled; the torch imports whose names are all converted
//                are replaced by the MindSpore imports the output uses (ms, nn, ops, mint, ds)
//   references   a resolved name with a row is respelled and its call's keywords rewritten by
//                the row's operations; every keyword left must be a parameter of the MindSpore
//                API (rules/mindspore/api.tsv), else the call is left as written (FRY1705)
//   methods      x.m(...) whose m has a torch.Tensor / torch.nn.Module row (view, size, to,
//                contiguous, item, parameters, train, eval, ...)
//   classes      nn.Module subclasses (and their subclasses in the file): forward → construct;
//                Dataset subclasses lose the base (GeneratorDataset takes any source)
//   training     zero_grad / forward / loss.backward() / step → forward_fn, value_and_grad,
//                optimizer(grads) (FRY4704); any other shape is reported (FRY1702)
//   no_grad      `with torch.no_grad():` → its body; @torch.no_grad() removed
//   devices      torch.device(...) → the device target's name, .to(device)/.cuda() dropped,
//                torch.cuda.is_available() → hal.is_available, the context set in __main__
//   data         DataLoader(ds, batch_size, shuffle) → GeneratorDataset(...).batch(...)
//   checkpoints  torch.save(m.state_dict(), p) → save_checkpoint(m, p); m.load_state_dict(x) →
//                load_param_into_net(m, x)
// What cannot be converted stays as written with a diagnostic (FRY1701-FRY1706).
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pyparse/edit_helpers.h"
#include "pyparse/imports.h"
#include "pyparse/tree.h"
#include "targets/mindspore/mapping.h"
#include "targets/mindspore/mindspore_target.h"

namespace ferry::targets::mindspore {
namespace {

using migrate::FileMigration;

// A name the output spells through the import block: "\x01mindspore.nn.Dense\x02" in edit texts
// until the imports are decided (finish_imports), then "nn.Dense" or "mindspore.nn.Dense".
std::string emit(std::string_view ms_name) { return "\x01" + std::string(ms_name) + "\x02"; }

std::string last_component(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

struct LocalEdit {
  std::uint32_t begin, end;
  std::string text;
  std::uint32_t seq;
};

class Converter {
 public:
  Converter(FileMigration& f, const pyparse::Tree& t, const Tables& tab, Settings s)
      : f_(f), t_(t), tab_(tab), s_(std::move(s)), src_(f.source()) {}

  void run() {
    excluded_ = pyparse::ignored_lines(t_);
    collect_imports(t_.root());
    if (imp_.aliases.empty()) return;  // not a PyTorch file: nothing to do
    collect_identifiers();
    collect_cell_classes();
    plan_training(t_.root());
    plan_ddp(t_.root());
    visit(t_.root());
    drop_self_assignments(t_.root());
    finish_blocks();  // before the structural passes render these blocks into their own edits
    apply_training();
    apply_ddp();
    apply_no_grad();
    set_device_context();
    finish_imports();
    finish_blocks();
    commit();
  }

 private:
  // ----- edits ------------------------------------------------------------------------------
  bool add(std::uint32_t b, std::uint32_t e, std::string text) {
    for (const LocalEdit& x : edits_) {
      if (b == e && x.begin == x.end) continue;
      if (b == e ? (x.begin < b && b < x.end)
                 : (x.begin == x.end ? (b < x.begin && x.begin < e) : (b < x.end && x.begin < e)))
        return false;
    }
    edits_.push_back({b, e, std::move(text), seq_++});
    return true;
  }
  bool replace_node(int n, std::string text) { return add(t_.at(n).begin, t_.at(n).end, std::move(text)); }
  // The source of [b, e) with the edits inside it applied.
  std::string render(std::uint32_t b, std::uint32_t e) const {
    std::vector<const LocalEdit*> in;
    for (const LocalEdit& x : edits_)
      if (x.begin >= b && x.end <= e && !(x.begin == x.end && (x.begin == b || x.begin == e) && b != e))
        in.push_back(&x);
    std::sort(in.begin(), in.end(), [](const LocalEdit* a, const LocalEdit* c) {
      return a->begin != c->begin ? a->begin < c->begin : a->seq < c->seq;
    });
    std::string out;
    std::uint32_t at = b;
    for (const LocalEdit* x : in) {
      if (x->begin < at) continue;
      out.append(src_.substr(at, x->begin - at));
      out += x->text;
      at = x->end;
    }
    out.append(src_.substr(at, e - at));
    return out;
  }
  std::string render(int n) const { return render(t_.at(n).begin, t_.at(n).end); }
  // Replaces [b, e) by `text`, dropping the edits inside it (the caller rendered them into text).
  bool replace_region(std::uint32_t b, std::uint32_t e, std::string text) {
    for (const LocalEdit& x : edits_)
      if (!(x.begin >= b && x.end <= e) && x.begin < e && b < x.end) return false;
    std::erase_if(edits_, [&](const LocalEdit& x) {
      return x.begin >= b && x.end <= e && !(x.begin == x.end && (x.begin == b || x.begin == e));
    });
    return add(b, e, std::move(text));
  }

  void commit() {
    std::sort(edits_.begin(), edits_.end(), [](const LocalEdit& a, const LocalEdit& c) {
      return a.begin != c.begin ? a.begin < c.begin : a.seq < c.seq;
    });
    for (LocalEdit& x : edits_) f_.replace_bytes(x.begin, x.end, spell_all(x.text));
  }

  // ----- diagnostics and counts -------------------------------------------------------------
  void diag(Diag code, int n, std::string msg, std::string hint) {
    f_.diag_at_line(code, t_.at(n).line, t_.at(n).col, std::move(msg), std::move(hint));
  }
  // TensorFlow / Keras uses are counted apart ("tf_same", "tf_diff", ...), so that the PyTorch figures
  // of a file that uses both stay the PyTorch figures.
  static std::string family(std::string_view name, std::string_view f) {
    return (name.rfind("tf.", 0) == 0 ? "tf_" : "") + std::string(f);
  }
  void converted(const Mapping& m, int n) {
    if (m.status == Status::Same) f_.count_converted(family(m.torch, "same"));
    else {
      f_.count_converted(family(m.torch, "diff"));
      diag(Diag::MsChange, n, m.torch + " → " + (m.ms.empty() ? std::string("(removed)") : m.ms),
           m.note.empty() ? std::string("see docs/targets.md#mindspore") : m.note);
    }
  }
  void unconverted(std::string_view family) { f_.count_unconverted(family); }

  // ----- tree helpers -----------------------------------------------------------------------
  std::string_view text(int n) const { return t_.text(n); }
  std::string_view type(int n) const { return t_.type(n); }
  bool excluded(int n) const { return excluded_.count(t_.at(n).line) > 0; }
  std::uint32_t line_start(std::uint32_t at) const { return pyparse::line_start(src_, at); }
  std::string indent_of(std::uint32_t at) const { return pyparse::indent_of(src_, at); }
  // [line start, end of line incl. '\n') of a statement alone on its lines, or nullopt.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> whole_lines(int n) const {
    const std::uint32_t ls = line_start(t_.at(n).begin);
    for (std::uint32_t i = ls; i < t_.at(n).begin; ++i)
      if (src_[i] != ' ' && src_[i] != '\t') return std::nullopt;
    std::uint32_t e = t_.at(n).end;
    while (e < src_.size() && (src_[e] == ' ' || src_[e] == '\t')) ++e;
    if (e < src_.size() && src_[e] != '\n' && src_[e] != '\r') return std::nullopt;
    while (e < src_.size() && src_[e] != '\n') ++e;
    if (e < src_.size()) ++e;
    return std::make_pair(ls, e);
  }

  // Removes statement `n` (its whole lines). A block whose statements all go keeps a `pass`
  // (finish_blocks). `region`: drop the edits inside it (they were rendered nowhere else).
  bool remove_statement(int n, bool region) {
    const auto lines = whole_lines(n);
    if (!lines) return false;
    const std::uint32_t id = seq_;
    if (!(region ? replace_region(lines->first, lines->second, "") : add(lines->first, lines->second, "")))
      return false;
    const int p = t_.at(n).parent;
    if (p >= 0 && type(p) == "block") removed_[p].push_back(id);
    return true;
  }
  void finish_blocks() {
    for (auto& [block, ids] : removed_) {
      if (ids.empty()) continue;
      std::size_t count = 0;
      for (int c : t_.named_children(block)) count += type(c) != "comment";
      if (ids.size() < count) continue;
      for (LocalEdit& e : edits_)
        if (e.seq == ids.front()) e.text = indent_of(e.begin) + "pass\n";
      ids.clear();
    }
  }

  // ----- imports ----------------------------------------------------------------------------
  // PyTorch, and TensorFlow / Keras (their names spelled canonically: tf.keras.layers.Dense).
  static bool torch_module(std::string_view q) {
    for (std::string_view p : {"torch", "torchvision", "torchaudio", "torchtext", "tensorflow", "keras"})
      if (pyparse::module_under(q, p)) return true;
    return false;
  }

  using ImportStmt = pyparse::ImportStmt;

  void collect_imports(int n) {
    imp_.collect(t_, n, torch_module);
    for (const auto& [alias, q] : imp_.aliases)
      if (q.rfind("torch", 0) == 0) torch_file_ = true;
  }

  void collect_identifiers() {
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
  std::string resolve(int n) const {
    std::string q = imp_.resolve(t_, n);
    if (!q.empty() && q.rfind("torch", 0) != 0) q = pyparse::canonical_tensorflow_name(q);
    return q;
  }
  // The alias a resolved reference starts with.
  std::string head_alias(int n) const { return pyparse::Imports::head_alias(t_, n); }
  void keep_alias(int n) { kept_aliases_.insert(head_alias(n)); }

  // ----- classes ----------------------------------------------------------------------------
  void collect_cell_classes() {
    std::vector<int> classes;
    std::function<void(int)> walk = [&](int n) {
      if (type(n) == "class_definition") classes.push_back(n);
      for (int c : t_.children(n)) walk(c);
    };
    walk(t_.root());
    for (bool changed = true; changed;) {
      changed = false;
      for (int c : classes) {
        const std::string name(text(t_.child(c, "name")));
        if (cell_classes_.count(name)) continue;
        const int sup = t_.child(c, "superclasses");
        if (sup < 0) continue;
        for (int b : t_.named_children(sup)) {
          const std::string r = resolve(b);
          // the method that computes: forward (torch.nn.Module), call (a Keras Model or Layer)
          std::string method;
          if (r == "torch.nn.Module") method = "forward";
          else if (r == "tf.keras.Model" || r == "tf.keras.layers.Layer") method = "call";
          else if (type(b) == "identifier" && cell_classes_.count(std::string(text(b))))
            method = cell_method_by_name_[std::string(text(b))];
          if (!method.empty()) {
            cell_classes_.insert(name);
            cell_class_nodes_.insert(c);
            cell_method_[c] = method;
            cell_method_by_name_[name] = method;
            changed = true;
            break;
          }
        }
      }
    }
  }

  // ----- the walk ---------------------------------------------------------------------------
  void visit(int n) {
    if (n < 0) return;
    const std::string_view ty = type(n);
    if (ty == "import_statement" || ty == "import_from_statement" || ty == "comment") return;
    if (ty == "string") {  // only an f-string's interpolations hold code
      const std::string_view t = text(n);
      const std::size_t q = t.find_first_of("'\"");
      const char saved = quote_;
      // before Python 3.12 a string inside an interpolation must use the other quote
      if (q != std::string_view::npos) quote_ = t[q] == '"' ? '\'' : '"';
      for (int c : t_.named_children(n))
        if (type(c) == "interpolation") visit(c);
      quote_ = saved;
      return;
    }
    if (excluded(n) && (ty == "call" || ty == "attribute" || ty == "identifier")) return;
    if (ty == "call") return call(n);
    if (ty == "attribute" || ty == "identifier") {
      const std::string r = resolve(n);
      if (!r.empty()) return reference(n, r, -1);
      if (ty == "attribute") visit(t_.child(n, "object"));
      return;
    }
    if (ty == "keyword_argument") return visit(t_.child(n, "value"));
    if (ty == "with_statement") {
      if (const int body = no_grad_body(n); body >= 0) {
        visit(body);
        no_grad_withs_.push_back(n);  // post-order: inner withs are rendered into outer ones
        return;
      }
    }
    if (ty == "class_definition") return class_definition(n);
    if (ty == "function_definition") {
      for (int c : t_.children(n)) {
        if (t_.at(c).field == "name") continue;
        if (t_.at(c).field == "parameters") {  // default values and annotations (evaluated at def time)
          for (int p : t_.named_children(c)) {
            if (type(p) == "default_parameter" || type(p) == "typed_default_parameter") visit(t_.child(p, "value"));
            if (type(p) == "typed_parameter" || type(p) == "typed_default_parameter") visit(t_.child(p, "type"));
          }
          continue;
        }
        visit(c);
      }
      return;
    }
    if (ty == "decorator") {
      int e = t_.named_children(n).empty() ? -1 : t_.named_children(n)[0];
      const int fn = type(e) == "call" ? t_.child(e, "function") : e;
      const std::string r = resolve(fn);
      if (r == "torch.no_grad" || r == "torch.inference_mode") {
        if (auto lines = whole_lines(n); lines && add(lines->first, lines->second, "")) {
          if (const Mapping* m = tab_.find("torch.no_grad")) converted(*m, n);
          used_aliases_.insert(head_alias(fn));
          return;
        }
      }
    }
    for (int c : t_.children(n)) visit(c);
  }

  void class_definition(int n) {
    const int sup = t_.child(n, "superclasses");
    if (sup >= 0) {
      const std::vector<int> bases = t_.named_children(sup);
      for (std::size_t i = 0; i < bases.size(); ++i) {
        const std::string r = resolve(bases[i]);
        if (r == "torch.utils.data.Dataset" || r == "torch.utils.data.IterableDataset") {
          used_aliases_.insert(head_alias(bases[i]));
          bool ok;
          if (bases.size() == 1) ok = replace_node(sup, "");
          else if (i + 1 < bases.size()) ok = add(t_.at(bases[i]).begin, t_.at(bases[i + 1]).begin, "");
          else ok = add(t_.at(bases[i - 1]).end, t_.at(bases[i]).end, "");
          if (ok) {
            if (const Mapping* m = tab_.find("torch.utils.data.Dataset")) converted(*m, bases[i]);
          }
          continue;
        }
        if (r == "tf.keras.Model" || r == "tf.keras.layers.Layer") {  // a subclassed Keras model or layer
          used_aliases_.insert(head_alias(bases[i]));
          if (replace_node(bases[i], emit("mindspore.nn.Cell"))) {
            f_.count_converted("tf_diff");
            diag(Diag::MsChange, bases[i], r + " → mindspore.nn.Cell",
                 "a subclassed Keras " + last_component(r) +
                     " becomes a Cell: call → construct; build() and "
                     "add_weight() are written by hand (Parameter)");
          }
          continue;
        }
        visit(bases[i]);
      }
    }
    const bool cell = cell_class_nodes_.count(n) > 0;
    const int body = t_.child(n, "body");
    if (cell && body >= 0) {
      for (int st : t_.named_children(body)) {
        int fn = st;
        if (type(st) == "decorated_definition") fn = t_.child(st, "definition");
        if (type(fn) == "function_definition" && text(t_.child(fn, "name")) == cell_method_[n]) {
          replace_node(t_.child(fn, "name"), "construct");
          f_.count_converted(cell_method_[n] == "call" ? "tf_diff" : "diff");
          diag(Diag::MsChange, t_.child(fn, "name"), cell_method_[n] + " → construct",
               "a Cell's computation is its construct method");
        }
      }
      current_cell_.push_back(n);
    }
    visit(body);
    if (cell) current_cell_.pop_back();
  }

  // A resolved torch reference `n` (the function of `call` when call >= 0).
  void reference(int n, const std::string& q, int call_node) {
    const Mapping* m = tab_.find(q);
    if (!m && type(n) == "attribute") {
      // nn.Module.__init__: the longest prefix with a row that names a class
      const int obj = t_.child(n, "object");
      const std::string oq = resolve(obj);
      const Mapping* om = tab_.find(oq);
      const ApiEntry* oe = om && !om->ms.empty() ? tab_.api(om->ms) : nullptr;
      if (om && om->status != Status::Unsupported && oe && oe->kind == "class") {
        reference(obj, oq, -1);
        return;
      }
      if (om && om->status == Status::Unsupported) return unsupported(n, q, om, call_node);
    }
    if (!m) return unsupported(n, q, nullptr, call_node);
    if (m->status == Status::Unsupported) return unsupported(n, q, m, call_node);
    used_aliases_.insert(head_alias(n));
    if (call_node >= 0 && special_call(call_node, *m)) return;
    if (m->ms.empty()) return unsupported(n, q, m, call_node);
    if (call_node >= 0) {
      if (!rewrite_arguments(call_node, *m, m->ms)) {
        keep_alias(n);
        visit(t_.child(call_node, "arguments"));
        return;
      }
    }
    replace_node(n, emit(m->ms));
    converted(*m, n);
    if (call_node >= 0) visit(t_.child(call_node, "arguments"));
  }

  void unsupported(int n, const std::string& q, const Mapping* m, int call_node) {
    keep_alias(n);
    unconverted(family(q, m ? "unsupported" : "unmapped"));
    std::string hint;
    if (m && !m->note.empty()) hint = m->note;
    else if (m && !m->ms.empty()) hint = "nearest MindSpore API: " + m->ms;
    else {
      const std::string last = last_component(q);
      for (std::string_view ns : {"mindspore.mint.", "mindspore.ops.", "mindspore.nn.", "mindspore."}) {
        if (tab_.api(std::string(ns) + last)) {
          hint = "no mapping row; nearest name: " + std::string(ns) + last + " (check its parameters)";
          break;
        }
      }
      if (hint.empty()) hint = "no MindSpore mapping; port it by hand (docs/targets.md#mindspore)";
    }
    const bool vision = q.rfind("torchvision", 0) == 0;
    diag(vision ? Diag::MsTorchvision : Diag::MsUnsupported, n,
         q + (m ? " has no automatic MindSpore conversion" : " has no MindSpore mapping"), hint);
    if (call_node >= 0) visit(t_.child(call_node, "arguments"));
  }

  // ----- arguments --------------------------------------------------------------------------
  using Args = pyparse::CallArgs;
  Args arguments(int call_node) const { return pyparse::call_arguments(t_, call_node); }
  // Removes the arguments `gone` of the list with their commas: each run of neighbours at once.
  void drop_arguments(const Args& a, const std::set<int>& gone) {
    const std::size_t n = a.all.size();
    for (std::size_t i = 0; i < n;) {
      if (!gone.count(a.all[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j + 1 < n && gone.count(a.all[j + 1])) ++j;
      if (i == 0 && j + 1 == n)
        add(t_.at(a.list).begin + 1, t_.at(a.list).end - 1, "");  // all of them, trailing comma too
      else if (j + 1 < n) add(t_.at(a.all[i]).begin, t_.at(a.all[j + 1]).begin, "");
      else if (i > 0) add(t_.at(a.all[i - 1]).end, t_.at(a.all[j]).end, "");
      else add(t_.at(a.all[i]).begin, t_.at(a.all[j]).end, "");
      i = j + 1;
    }
  }
  std::string expand(const std::string& expr, const Args& a) const {
    std::string out;
    for (std::size_t i = 0; i < expr.size(); ++i) {
      if (expr[i] != '{') {
        out += expr[i];
        continue;
      }
      const std::size_t close = expr.find('}', i);
      if (close == std::string::npos) return {};
      std::string alt = expr.substr(i + 1, close - i - 1), got;
      std::size_t start = 0;
      while (got.empty() && start <= alt.size()) {
        std::size_t bar = alt.find('|', start);
        if (bar == std::string::npos) bar = alt.size();
        const std::string one = alt.substr(start, bar - start);
        if (!one.empty() && one[0] == '@') {
          const std::size_t k = static_cast<std::size_t>(std::atoi(one.c_str() + 1));
          if (k < a.positional.size()) got = render(a.positional[k]);
        } else if (auto kw = a.keywords.find(one); kw != a.keywords.end()) {
          got = render(t_.child(kw->second, "value"));
        }
        start = bar + 1;
      }
      if (got.empty()) return {};
      out += got;
      i = close;
    }
    return out;
  }

  // Applies the row's keyword operations to the call's arguments, if every keyword the result
  // passes is a parameter of `ms` in the API table; false (nothing changed, FRY1705) otherwise.
  bool rewrite_arguments(int call_node, const Mapping& m, const std::string& ms) {
    const Args a = arguments(call_node);
    if (a.list < 0) return true;
    struct Planned {
      std::uint32_t b, e;
      std::string text;
    };
    std::vector<Planned> plan;
    std::set<std::string> final_kw;
    for (const auto& [k, node] : a.keywords) final_kw.insert(k);
    std::set<int> dropped;
    int first_positional_kw = static_cast<int>(a.positional.size());
    std::string problem;
    for (const ArgOp& op : m.ops) {
      switch (op.kind) {
        case ArgOp::Kind::Rename:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end() && op.from != op.to) {
            if (final_kw.count(op.to)) problem = "both " + op.from + " and " + op.to + " are given";
            const int name = t_.child(it->second, "name");
            plan.push_back({t_.at(name).begin, t_.at(name).end, op.to});
            final_kw.erase(op.from);
            final_kw.insert(op.to);
          }
          break;
        case ArgOp::Kind::Drop:
          if (auto it = a.keywords.find(op.from); it != a.keywords.end()) {
            dropped.insert(it->second);
            final_kw.erase(op.from);
          }
          break;
        case ArgOp::Kind::Positional:
          if (op.position >= 0 && static_cast<std::size_t>(op.position) < a.positional.size()) {
            plan.push_back({t_.at(a.positional[static_cast<std::size_t>(op.position)]).begin,
                            t_.at(a.positional[static_cast<std::size_t>(op.position)]).begin, op.to + "="});
            final_kw.insert(op.to);
            first_positional_kw = std::min(first_positional_kw, op.position);
          }
          break;
        case ArgOp::Kind::Add: break;
      }
    }
    // every positional after the first one made a keyword must be one too
    for (std::size_t k = static_cast<std::size_t>(first_positional_kw); k < a.positional.size(); ++k) {
      bool made = false;
      for (const ArgOp& op : m.ops)
        if (op.kind == ArgOp::Kind::Positional && op.position == static_cast<int>(k)) made = true;
      if (!made) problem = "positional argument " + std::to_string(k + 1) + " has no keyword in " + ms;
    }
    for (const ArgOp& op : m.ops) {
      if (op.kind != ArgOp::Kind::Add || final_kw.count(op.from)) continue;
      const std::string value = expand(op.to, a);
      if (value.empty()) {
        problem = "the value of " + op.from + " (" + op.to + ") cannot be formed from the arguments";
        continue;
      }
      final_kw.insert(op.from);
      // before the closing parenthesis, after the last argument
      std::uint32_t at = t_.at(a.list).end - 1;
      std::string ins = op.from + "=" + value;
      if (!a.all.empty() && dropped.size() < a.all.size()) {
        at = t_.at(a.all.back()).end;
        ins = ", " + ins;
        if (dropped.count(a.all.back())) {
          // the last argument goes: insert after the last one kept
          for (auto it = a.all.rbegin(); it != a.all.rend(); ++it)
            if (!dropped.count(*it)) {
              at = t_.at(*it).end;
              break;
            }
        }
      }
      plan.push_back({at, at, ins});
    }
    // every keyword must be a parameter of the MindSpore API; one the user wrote that no operation
    // produced must be a named parameter (a **kwargs there does not make a PyTorch keyword right)
    std::set<std::string> produced;
    for (const ArgOp& op : m.ops) produced.insert(op.kind == ArgOp::Kind::Add ? op.from : op.to);
    const ApiEntry* api = tab_.api(ms);
    // A wrapper takes only *args/**kwargs; an API with no parameters at all is not one (all_of of an
    // empty list would say so, and let mindspore.Generator(device=...) through).
    const bool wrapper =
        api && !api->params.empty() &&
        std::all_of(api->params.begin(), api->params.end(), [](const std::string& p) { return p.rfind('*', 0) == 0; });
    if (api && !wrapper)
      for (const std::string& k : final_kw) {
        const bool named = std::find(api->params.begin(), api->params.end(), k) != api->params.end();
        if (!api->takes(k) || (!produced.count(k) && api->params_known && !named))
          problem = "keyword '" + k + "' has no counterpart in " + ms;
      }
    if (!problem.empty()) {
      diag(Diag::MsArguments, call_node, m.torch + " left as written: " + problem,
           m.note.empty() ? "convert the call by hand (" + ms + ")" : m.note);
      unconverted(family(m.torch, "arguments"));
      return false;
    }
    if (a.splat && !m.ops.empty())
      diag(Diag::MsArguments, call_node, m.torch + ": arguments passed with * or ** are not checked",
           "their keywords may need the renames of " + m.where + " by hand");
    drop_arguments(a, dropped);
    for (Planned& p : plan) add(p.b, p.e, std::move(p.text));
    return true;
  }

  // ----- calls ------------------------------------------------------------------------------
  void call(int n) {
    const int fn = t_.child(n, "function");
    if (consumed_.count(n) && !resolve(fn).empty()) return;  // clip_grad_norm_ inside a converted step
    const std::string r = resolve(fn);
    if (!r.empty()) return reference(fn, r, n);
    if (type(fn) == "attribute") {
      if (method_call(n, fn)) return;
      visit(t_.child(fn, "object"));
      // self.forward(...) inside a Cell
      if (!current_cell_.empty() && text(t_.child(fn, "attribute")) == cell_method_[current_cell_.back()])
        replace_node(t_.child(fn, "attribute"), "construct");
    } else {
      visit(fn);
    }
    visit(t_.child(n, "arguments"));
  }

  const Mapping* method_row(std::string_view name) const {
    for (std::string_view cls : {"torch.Tensor.", "torch.nn.Module.", "torch.optim.Optimizer."})
      if (const Mapping* m = tab_.find(std::string(cls) + std::string(name))) return m;
    return nullptr;
  }

  bool is_device_arg(int n) const {
    if (n < 0) return false;
    const std::string r = resolve(type(n) == "call" ? t_.child(n, "function") : n);
    if (r == "torch.device" || r == "torch.accelerator.current_accelerator") return true;
    if (type(n) == "string") {
      const std::string_view s = text(n);
      return s.find("cuda") != std::string_view::npos || s.find("cpu") != std::string_view::npos ||
             s.find("mps") != std::string_view::npos || s.find("npu") != std::string_view::npos;
    }
    if (type(n) == "identifier" || type(n) == "attribute") {
      const std::string last = last_component(text(n));
      return last.find("device") != std::string::npos || last == "rank" || last == "local_rank" || last == "gpu";
    }
    if (type(n) == "integer") return true;
    return false;
  }

  // x.m(...) with a method row; true when handled.
  bool method_call(int n, int fn) {
    // the Tensor/Module rows match a method by name on any receiver: only where PyTorch is imported
    // (a TensorFlow dataset's .repeat() is not torch.Tensor.repeat)
    if (!torch_file_) return false;
    const std::string name(text(t_.child(fn, "attribute")));
    const int obj = t_.child(fn, "object");
    if (consumed_.count(n)) {
      visit(obj);
      return true;
    }
    if (name == "backward" || name == "zero_grad" || name == "step") {
      if (name == "step" && !optimizers_.count(std::string(text(obj)))) return false;
      if (name == "backward" && !t_.named_children(t_.child(n, "arguments")).empty()) return false;
      diag(Diag::MsTrainingStep, n, text(fn).data() ? std::string(text(fn)) + "() left as written" : "",
           "MindSpore returns gradients instead of accumulating them: compute the loss in a forward function, "
           "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters), (loss, grads) = grad_fn(...), "
           "optimizer(grads)");
      unconverted("training");
      visit(obj);
      return true;
    }
    const Mapping* m = method_row(name);
    if (!m) return false;
    const Args a = arguments(n);
    if (m->status == Status::Unsupported) {
      diag(Diag::MsUnsupported, n, "." + name + "() has no automatic MindSpore conversion", m->note);
      unconverted("unsupported");
      return false;
    }
    visit(obj);
    // drops: x.contiguous(), x.cpu(), x.cuda(), x.to(device)
    if (name == "contiguous" || name == "cpu" || name == "cuda" ||
        (name == "to" && !a.positional.empty() && is_device_arg(a.positional[0]) && a.keywords.empty())) {
      if (name == "to" && a.positional.size() > 1) return false;
      for (int x : a.all) visit(x);
      if (!replace_region(t_.at(n).begin, t_.at(n).end, render(obj))) return true;
      converted(*m, n);
      if (name != "contiguous") device_used_ = true;
      return true;
    }
    if (name == "to") {  // a dtype: x.to(torch.float16) keeps .to with the converted dtype
      visit(t_.child(n, "arguments"));
      f_.count_converted("same");
      return true;
    }
    if (name == "size") {  // x.size() → x.shape, x.size(d) → x.shape[d]
      if (a.all.size() > 1 || a.splat || (!a.keywords.empty() && a.keywords.count("dim") == 0)) return false;
      visit(t_.child(n, "arguments"));
      std::string repl = render(obj) + ".shape";
      if (!a.all.empty()) {
        const int v = type(a.all[0]) == "keyword_argument" ? t_.child(a.all[0], "value") : a.all[0];
        repl += "[" + render(v) + "]";
      }
      if (replace_region(t_.at(n).begin, t_.at(n).end, repl)) converted(*m, n);
      return true;
    }
    if (name == "detach" && a.all.empty()) {
      if (replace_region(t_.at(n).begin, t_.at(n).end, emit("mindspore.ops.stop_gradient") + "(" + render(obj) + ")"))
        converted(*m, n);
      return true;
    }
    if (name == "load_state_dict" && a.positional.size() == 1 && a.keywords.empty()) {
      visit(a.positional[0]);
      if (replace_region(
              t_.at(n).begin, t_.at(n).end,
              emit("mindspore.load_param_into_net") + "(" + render(obj) + ", " + render(a.positional[0]) + ")"))
        converted(*m, n);
      return true;
    }
    if (name == "transpose" && !(a.positional.size() == 2 && a.keywords.empty())) return false;
    if (m->status == Status::Same) {
      f_.count_converted("same");
      visit(t_.child(n, "arguments"));
      return true;
    }
    if (m->ms.empty()) return false;
    if (!rewrite_arguments(n, *m, m->ms)) {
      visit(t_.child(n, "arguments"));
      return true;
    }
    const std::string new_name = last_component(m->ms);
    if (new_name != name) replace_node(t_.child(fn, "attribute"), new_name);
    converted(*m, n);
    visit(t_.child(n, "arguments"));
    return true;
  }

  // A string literal in the quote the current context allows.
  std::string quoted(const std::string& s) const { return quote_ + s + quote_; }
  std::string device_literal(int arg) const {
    if (arg >= 0 && type(arg) == "string") {
      const std::string_view s = text(arg);
      if (s.find("cpu") != std::string_view::npos) return quoted("CPU");
    }
    return quoted(s_.device_target);
  }

  // Calls whose conversion is structural; true when handled (converted or diagnosed).
  bool special_call(int n, const Mapping& m) {
    const Args a = arguments(n);
    const int fn = t_.child(n, "function");
    if (m.torch == "torch.device") {
      // torch.device("cuda" if c else "cpu") keeps its condition: each device string is renamed
      if (a.positional.size() == 1 && type(a.positional[0]) == "conditional_expression") {
        std::string out;
        std::uint32_t at = t_.at(a.positional[0]).begin;
        for (int c : t_.named_children(a.positional[0])) {
          out.append(src_.substr(at, t_.at(c).begin - at));
          if (type(c) == "string") out += device_literal(c);
          else {
            visit(c);
            out += render(c);
          }
          at = t_.at(c).end;
        }
        out.append(src_.substr(at, t_.at(a.positional[0]).end - at));
        replace_region(t_.at(n).begin, t_.at(n).end, out);
      } else {
        replace_region(t_.at(n).begin, t_.at(n).end, device_literal(a.positional.empty() ? -1 : a.positional[0]));
      }
      device_used_ = true;
      f_.count_converted("diff");
      diag(Diag::MsDevice, n, "torch.device(...) → the device target's name",
           "MindSpore runs on the device of its context (set once: ms.set_device / ms.set_context)");
      return true;
    }
    if (m.torch == "torch.accelerator.current_accelerator") {
      replace_region(t_.at(n).begin, t_.at(n).end, device_literal(-1));
      device_used_ = true;
      f_.count_converted("diff");
      diag(Diag::MsDevice, n, m.torch + "() → \"" + s_.device_target + "\"", m.note);
      return true;
    }
    if (m.torch == "torch.cuda.is_available" || m.torch == "torch.accelerator.is_available") {
      if (s_.minor < 3) {
        unsupported(fn, m.torch, &m, -1);
        return true;
      }
      replace_region(t_.at(n).begin, t_.at(n).end, emit("mindspore.hal.is_available") + "(" + device_literal(-1) + ")");
      device_used_ = true;
      f_.count_converted("diff");
      diag(Diag::MsDevice, n, m.torch + "() → mindspore.hal.is_available(\"" + s_.device_target + "\")", m.note);
      return true;
    }
    if (m.torch == "torch.save") {
      if (a.positional.size() == 2 && a.keywords.empty() && type(a.positional[0]) == "call") {
        const int inner = t_.child(a.positional[0], "function");
        if (type(inner) == "attribute" && text(t_.child(inner, "attribute")) == "state_dict" &&
            t_.named_children(t_.child(a.positional[0], "arguments")).empty()) {
          const int model = t_.child(inner, "object");
          visit(model);
          visit(a.positional[1]);
          replace_region(
              t_.at(n).begin, t_.at(n).end,
              emit("mindspore.save_checkpoint") + "(" + render(model) + ", " + render(a.positional[1]) + ")");
          converted(m, n);
          return true;
        }
      }
      unsupported(fn, m.torch, nullptr, n);
      return true;
    }
    if (m.torch == "torch.utils.data.DataLoader") return data_loader(n, a, m);
    if (m.torch == "torch.no_grad" || m.torch == "torch.utils.data.Dataset") {
      unsupported(fn, m.torch, &m, n);  // outside a with / class statement
      return true;
    }
    return false;
  }

  bool data_loader(int n, const Args& a, const Mapping& m) {
    const int fn = t_.child(n, "function");
    static const std::set<std::string> known = {
        "dataset",    "batch_size",         "shuffle",        "num_workers", "drop_last",
        "pin_memory", "persistent_workers", "prefetch_factor"};
    std::string problem;
    if (a.splat) problem = "arguments passed with * or ** cannot be mapped";
    if (a.positional.empty() && !a.keywords.count("dataset")) problem = "no dataset argument";
    if (a.positional.size() > 3) problem = "more than three positional arguments";
    for (const auto& [k, v] : a.keywords)
      if (!known.count(k)) problem = "'" + k + "' has no GeneratorDataset counterpart";
    if (!problem.empty()) {
      keep_alias(fn);
      diag(Diag::MsUnsupported, n, "DataLoader left as written: " + problem,
           "mindspore.dataset.GeneratorDataset(source, column_names=[...], shuffle=...).batch(batch_size); "
           "a sampler or collate_fn becomes a dataset.map/batch(per_batch_map=...) by hand");
      unconverted("data");
      for (int x : a.all) visit(x);
      return true;
    }
    for (int x : a.all) visit(x);
    auto value = [&](std::size_t pos, const char* kw) -> std::string {
      if (auto it = a.keywords.find(kw); it != a.keywords.end()) return render(t_.child(it->second, "value"));
      if (pos < a.positional.size()) return render(a.positional[pos]);
      return {};
    };
    const std::string dataset = value(0, "dataset");
    std::string batch = value(1, "batch_size");
    std::string shuffle = value(2, "shuffle");
    const std::string workers = value(99, "num_workers");
    const std::string drop = value(99, "drop_last");
    std::string out = emit("mindspore.dataset.GeneratorDataset") + "(" + dataset + ", column_names=[" + quoted("data") +
                      ", " + quoted("label") + "], shuffle=" + (shuffle.empty() ? "False" : shuffle);
    if (!workers.empty() && workers != "0") out += ", num_parallel_workers=" + workers;
    out += ").batch(" + (batch.empty() ? std::string("1") : batch);
    if (!drop.empty()) out += ", drop_remainder=" + drop;
    out += ")";
    if (replace_region(t_.at(n).begin, t_.at(n).end, out)) {
      f_.count_converted("diff");
      diag(Diag::MsData, n, "DataLoader → GeneratorDataset(...).batch(...)",
           "the source's items become the columns [\"data\", \"label\"]: rename them to what __getitem__ returns; " +
               m.note);
    }
    return true;
  }

  // ----- the training step ------------------------------------------------------------------
  struct Step {
    int block = -1, loop = -1;                            // the block holding the step; the loop around it (or -1)
    int zero = -1, first = -1, backward = -1, step = -1;  // statements
    std::vector<int> forward;                             // statements between zero_grad and backward
    std::string loss, optimizer;
    int clip = -1;  // clip_grad_norm_(params, max_norm) between backward and step
    std::string max_norm;
    // mixed precision: `with autocast():` among the forward statements, a GradScaler
    int amp_with = -1;     // the with statement (its body joins the forward statements)
    std::string scaler;    // `scaler` of scaler.scale(loss).backward(), or empty
    int scaler_ctor = -1;  // the GradScaler(...) call that creates it
    std::string scale_value = "2**16", scale_factor = "2", scale_window = "2000";
    int update = -1, unscale = -1;  // scaler.update(), scaler.unscale_(opt) statements
    std::string net;                // the network the forward calls (wrapped by auto_mixed_precision)
    int net_stmt = -1;              // the statement that builds it, or -1
  };

  // The call of `with torch.autocast(...)` (torch.cuda.amp.autocast, torch.amp.autocast) with one
  // item and a body on its own lines, or -1.
  int autocast_call(int x) const {
    if (type(x) != "with_statement" || excluded(x)) return -1;
    int clause = -1;
    for (int c : t_.named_children(x))
      if (type(c) == "with_clause") clause = c;
    if (clause < 0) return -1;
    const std::vector<int> items = t_.named_children(clause);
    if (items.size() != 1) return -1;
    const int value = t_.child(items[0], "value");
    if (value < 0 || type(value) != "call") return -1;
    const std::string r = resolve(t_.child(value, "function"));
    if (r != "torch.autocast" && r != "torch.cuda.amp.autocast" && r != "torch.amp.autocast") return -1;
    const int body = t_.child(x, "body");
    if (body < 0 || t_.at(body).line == t_.at(x).line) return -1;
    return value;
  }
  // Why autocast(...)'s arguments keep it from becoming auto_mixed_precision(net, 'O1'), or "".
  std::string autocast_args_problem(int call_node) const {
    const Args a = arguments(call_node);
    if (a.splat) return "autocast(*args/**kwargs)";
    auto device_like = [&](int v) {
      return type(v) == "string" &&
             (text(v).find("cuda") != std::string_view::npos || text(v).find("npu") != std::string_view::npos);
    };
    if (a.positional.size() > 1 || (a.positional.size() == 1 && !device_like(a.positional[0])))
      return "autocast(" + std::string(text(a.list)).substr(1) + " is not a CUDA/NPU device type";
    for (const auto& [k, kw] : a.keywords) {
      const int v = t_.child(kw, "value");
      if (k == "device_type" && device_like(v)) continue;
      if (k == "dtype" && (resolve(v) == "torch.float16" || resolve(v) == "torch.half")) continue;
      return "autocast(" + k + "=" + std::string(text(v)) + "): 'O1' casts to float16 on the device only";
    }
    return {};
  }
  // The GradScaler(...) call assigned to `name` anywhere in the file, or -1.
  int find_scaler_ctor(int n, const std::string& name) const {
    if (type(n) == "assignment" && text(t_.child(n, "left")) == name) {
      const int right = t_.child(n, "right");
      if (type(right) == "call") {
        const std::string r = resolve(t_.child(right, "function"));
        if (r == "torch.cuda.amp.GradScaler" || r == "torch.amp.GradScaler" || r == "torch.GradScaler") return right;
      }
    }
    for (int c : t_.children(n))
      if (const int x = find_scaler_ctor(c, name); x >= 0) return x;
    return -1;
  }
  // The statement `name = <call>` that builds a network (not a loss), anywhere in the file, or -1.
  int find_net_stmt(int n, const std::string& name) const {
    if (type(n) == "expression_statement") {
      const std::vector<int> k = t_.named_children(n);
      if (k.size() == 1 && type(k[0]) == "assignment" && text(t_.child(k[0], "left")) == name) {
        int right = t_.child(k[0], "right");
        // Net(...).to(device) / .cuda(): the innermost call
        while (right >= 0 && type(right) == "call" && type(t_.child(right, "function")) == "attribute" &&
               type(t_.child(t_.child(right, "function"), "object")) == "call")
          right = t_.child(t_.child(right, "function"), "object");
        if (right >= 0 && type(right) == "call") {
          const std::string fn(text(t_.child(right, "function")));
          if (fn.find("Loss") == std::string::npos &&
              resolve(t_.child(right, "function")).find("Loss") == std::string::npos)
            return n;
        }
      }
      return -1;
    }
    for (int c : t_.children(n))
      if (const int x = find_net_stmt(c, name); x >= 0) return x;
    return -1;
  }
  // GradScaler(init_scale=, growth_factor=, growth_interval=) → DynamicLossScaler's values, or why not.
  std::string scaler_args(int call_node, Step& st) const {
    const Args a = arguments(call_node);
    if (a.splat) return "GradScaler(*args/**kwargs)";
    for (int p : a.positional)
      if (!(type(p) == "string" && text(p).find("cuda") != std::string_view::npos))
        return "GradScaler's positional arguments";
    for (const auto& [k, kw] : a.keywords) {
      const std::string v(text(t_.child(kw, "value")));
      if (k == "init_scale") st.scale_value = v;
      else if (k == "growth_factor") st.scale_factor = v;
      else if (k == "growth_interval") st.scale_window = v;
      else if (k == "device" && type(t_.child(kw, "value")) == "string") continue;
      else if (k == "backoff_factor" && (v == "0.5" || v == ".5")) continue;
      else return "GradScaler(" + k + "=" + v + ") has no DynamicLossScaler counterpart";
    }
    return {};
  }

  // A statement between backward() and step() that the step can keep: it neither reads gradients
  // nor steps; clip_grad_norm_(params, max_norm) is recognised (it becomes clip_by_global_norm).
  bool between_statement(int st, int& clip, std::string& max_norm) const {
    if (type(st) != "expression_statement") return false;
    const std::vector<int> k = t_.named_children(st);
    if (k.size() == 1 && type(k[0]) == "call" &&
        resolve(t_.child(k[0], "function")) == "torch.nn.utils.clip_grad_norm_" && clip < 0) {
      const Args a = arguments(k[0]);
      if (a.splat) return false;
      if (a.positional.size() >= 2) max_norm = std::string(text(a.positional[1]));
      else if (auto it = a.keywords.find("max_norm"); it != a.keywords.end())
        max_norm = std::string(text(t_.child(it->second, "value")));
      if (max_norm.empty() || a.positional.size() > 2 || a.keywords.size() > (a.positional.size() >= 2 ? 0u : 1u))
        return false;
      clip = st;
      return true;
    }
    const std::string_view x = text(st);
    return x.find("grad") == std::string_view::npos && x.find(".step(") == std::string_view::npos &&
           x.find("backward") == std::string_view::npos;
  }

  // "opt.zero_grad()" etc.: the call of an expression statement, its receiver and method name.
  bool stmt_method(int st, std::string& receiver, std::string& method, int* call_out = nullptr) const {
    if (type(st) != "expression_statement") return false;
    const std::vector<int> k = t_.named_children(st);
    if (k.size() != 1 || type(k[0]) != "call") return false;
    const int fn = t_.child(k[0], "function");
    if (type(fn) != "attribute") return false;
    receiver = std::string(text(t_.child(fn, "object")));
    method = std::string(text(t_.child(fn, "attribute")));
    if (call_out) *call_out = k[0];
    return true;
  }

  void plan_training(int n) {
    // optimizers: names assigned from a torch.optim.X(...) call
    std::function<void(int)> opts = [&](int x) {
      if (type(x) == "assignment") {
        const int right = t_.child(x, "right");
        const std::string r = type(right) == "call" ? resolve(t_.child(right, "function")) : std::string();
        // torch.optim.SGD, not torch.optim.lr_scheduler.StepLR
        if (r.rfind("torch.optim.", 0) == 0 && r.find('.', 12) == std::string::npos)
          optimizers_.insert(std::string(text(t_.child(x, "left"))));
      }
      for (int c : t_.children(x)) opts(c);
    };
    opts(n);
    std::function<void(int)> walk = [&](int x) {
      if (type(x) == "block" || type(x) == "module") plan_block(x);
      for (int c : t_.children(x)) walk(c);
    };
    walk(n);
  }

  void plan_block(int block) {
    const std::vector<int> stmts = t_.named_children(block);
    int z = -1, b = -1, s = -1, update = -1, unscale = -1;
    std::string recv, meth, opt, loss, scaler;
    for (std::size_t i = 0; i < stmts.size(); ++i) {
      int call_node = -1;
      if (!stmt_method(stmts[i], recv, meth, &call_node)) continue;
      const Args ca = arguments(call_node);
      const std::string arg0 = ca.positional.size() == 1 && ca.keywords.empty() && !ca.splat
                                   ? std::string(text(ca.positional[0]))
                                   : std::string();
      if (meth == "zero_grad" && z < 0) {
        z = static_cast<int>(i);
        opt = recv;
      } else if (meth == "backward" && b < 0 && t_.named_children(t_.child(call_node, "arguments")).empty()) {
        b = static_cast<int>(i);
        loss = recv;
        // scaler.scale(loss).backward()
        const int obj = t_.child(t_.child(call_node, "function"), "object");
        if (type(obj) == "call" && type(t_.child(obj, "function")) == "attribute" &&
            text(t_.child(t_.child(obj, "function"), "attribute")) == "scale") {
          const Args sa = arguments(obj);
          if (sa.positional.size() == 1 && sa.keywords.empty() && !sa.splat && type(sa.positional[0]) == "identifier") {
            scaler = std::string(text(t_.child(t_.child(obj, "function"), "object")));
            loss = std::string(text(sa.positional[0]));
          }
        }
      } else if (meth == "step" && s < 0 && (recv == opt || (opt.empty() && optimizers_.count(recv)))) {
        s = static_cast<int>(i);
        if (opt.empty()) opt = recv;
      } else if (meth == "step" && s < 0 && b >= 0 && !scaler.empty() && recv == scaler &&
                 (arg0 == opt || (opt.empty() && optimizers_.count(arg0)))) {
        s = static_cast<int>(i);
        if (opt.empty()) opt = arg0;
      } else if (meth == "update" && s >= 0 && update < 0 && !scaler.empty() && recv == scaler && ca.all.empty()) {
        update = static_cast<int>(i);
      } else if (meth == "unscale_" && b >= 0 && s < 0 && unscale < 0 && !scaler.empty() && recv == scaler &&
                 arg0 == opt) {
        unscale = static_cast<int>(i);
      }
    }
    if (b < 0) return;
    const int stmt_b = stmts[static_cast<std::size_t>(b)];
    std::string why;
    if (z < 0) why = "no optimizer.zero_grad() before loss.backward() in the same block";
    else if (z > b) why = "zero_grad() comes after backward()";
    else if (s < 0)
      why = "no " + (opt.empty() ? std::string("optimizer") : opt) + ".step() after loss.backward() in the same block";
    int clip = -1;
    std::string max_norm;
    if (why.empty())
      for (int i = b + 1; i < s; ++i)
        if (i != unscale && !between_statement(stmts[static_cast<std::size_t>(i)], clip, max_norm))
          why = "a statement between loss.backward() and " + opt + ".step() that reads or changes gradients";
    if (why.empty() && b == z + 1) why = "no forward computation between zero_grad() and backward()";
    if (why.empty() && !std::all_of(loss.begin(), loss.end(),
                                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
      why = "backward() is called on an expression, not on a name";
    Step st;
    st.block = block;
    st.loop = -1;
    st.zero = z >= 0 ? stmts[static_cast<std::size_t>(z)] : -1;
    st.first = -1;
    st.backward = stmt_b;
    st.step = s >= 0 ? stmts[static_cast<std::size_t>(s)] : -1;
    st.loss = loss;
    st.optimizer = opt;
    st.scaler = scaler;
    if (why.empty() && !scaler.empty()) {
      st.scaler_ctor = find_scaler_ctor(t_.root(), scaler);
      if (st.scaler_ctor < 0) why = "the GradScaler '" + scaler + "' is not created in this file";
      else if (std::string p = scaler_args(st.scaler_ctor, st); !p.empty()) why = p;
    }
    if (why.empty()) {
      for (int i = z + 1; i < b; ++i) {
        const int x = stmts[static_cast<std::size_t>(i)];
        if (const int ac = autocast_call(x); ac >= 0 && st.amp_with < 0) {
          if (std::string p = autocast_args_problem(ac); !p.empty() && why.empty()) why = p;
          st.amp_with = x;
          for (int y : t_.named_children(t_.child(x, "body"))) {
            if (type(y) == "comment") continue;
            if (type(y) != "expression_statement" && why.empty())
              why = "a compound statement (" + std::string(type(y)) + ") in the forward computation";
            st.forward.push_back(y);
          }
          continue;
        }
        if (type(x) != "expression_statement" && why.empty())
          why = "a compound statement (" + std::string(type(x)) + ") in the forward computation";
        st.forward.push_back(x);
      }
      bool assigns_loss = false;
      for (int x : st.forward)
        for (const std::string& nm : assigned_names(x))
          if (nm == loss) assigns_loss = true;
      if (why.empty() && !assigns_loss)
        why = "the loss '" + loss + "' is not computed between zero_grad() and backward()";
      // value_and_grad differentiates what forward_fn computes: the model must run inside it
      bool model_call = false;
      std::vector<std::string> callees;
      std::function<void(int)> calls = [&](int x) {
        if (type(x) == "call") {
          const int fn = t_.child(x, "function");
          const bool torch_fn = !resolve(fn).empty();
          const bool tensor_method = type(fn) == "attribute" && method_row(text(t_.child(fn, "attribute"))) != nullptr;
          if (!torch_fn && !tensor_method) {
            model_call = true;
            if (type(fn) == "identifier" || type(fn) == "attribute") callees.emplace_back(text(fn));
          }
        }
        for (int c : t_.children(x)) calls(c);
      };
      for (int x : st.forward) calls(x);
      if (st.amp_with >= 0) {  // the network auto_mixed_precision wraps: a callee built in this file
        for (const std::string& c : callees)
          if (const int ns = find_net_stmt(t_.root(), c); ns >= 0) {
            st.net = c;
            st.net_stmt = ns;
            break;
          }
        if (st.net.empty() && !callees.empty()) st.net = callees.front();
        if (st.net.empty() && why.empty()) why = "no network call inside the autocast block";
      }
      if (why.empty() && !model_call)
        why =
            "no model call between zero_grad() and backward(): the forward computation happens earlier, outside "
            "what value_and_grad can differentiate";
    }
    if (!why.empty()) {
      if (!scaler.empty() || st.amp_with >= 0) why = "mixed precision: " + why;
      step_failures_.push_back({stmt_b, why});
      // reported once, by apply_training
      for (int i : {z, b, s})
        if (i >= 0) consumed_.insert(t_.named_children(stmts[static_cast<std::size_t>(i)])[0]);
      return;
    }
    const int parent = t_.at(block).parent;
    if (parent >= 0 && (type(parent) == "for_statement" || type(parent) == "while_statement")) st.loop = parent;
    st.clip = clip;
    st.max_norm = max_norm;
    if (clip >= 0) consumed_.insert(t_.named_children(clip)[0]);
    for (int x : {st.zero, st.backward, st.step}) consumed_.insert(t_.named_children(x)[0]);
    if (update >= 0) st.update = stmts[static_cast<std::size_t>(update)];
    if (unscale >= 0) st.unscale = stmts[static_cast<std::size_t>(unscale)];
    for (int x : {st.update, st.unscale})
      if (x >= 0) consumed_.insert(t_.named_children(x)[0]);
    if (st.scaler_ctor >= 0) consumed_.insert(st.scaler_ctor);
    if (st.amp_with >= 0) consumed_.insert(autocast_call(st.amp_with));
    st.first = stmts[static_cast<std::size_t>(z + 1)];
    steps_.push_back(st);
  }

  std::vector<std::string> assigned_names(int st) const {
    std::vector<std::string> out;
    std::function<void(int)> targets = [&](int x) {
      if (type(x) == "identifier") out.emplace_back(text(x));
      else if (type(x) == "pattern_list" || type(x) == "tuple_pattern" || type(x) == "list_pattern")
        for (int c : t_.named_children(x)) targets(c);
    };
    for (int c : t_.named_children(st))
      if (type(c) == "assignment" || type(c) == "augmented_assignment") targets(t_.child(c, "left"));
    return out;
  }
  void read_names(int x, std::vector<std::string>& out) const {
    if (type(x) == "identifier") {
      const int p = t_.at(x).parent;
      if (!(type(p) == "attribute" && t_.child(p, "attribute") == x) &&
          !(type(p) == "keyword_argument" && t_.child(p, "name") == x))
        out.emplace_back(text(x));
      return;
    }
    for (int c : t_.children(x)) read_names(c, out);
  }
  std::string fresh(const std::string& base) {
    std::string name = base;
    for (int k = 2; other_identifiers_.count(name) || taken_.count(name); ++k) name = base + "_" + std::to_string(k);
    taken_.insert(name);
    return name;
  }
  // Every line of `text` loses the prefix `from` (as much of it as it has) and gains `to`; the first
  // line too when `first_too`, else it is taken as it is (it starts after its indentation).
  static std::string reindent(const std::string& text, const std::string& from, const std::string& to, bool first_too) {
    std::string out;
    std::size_t i = 0;
    bool first = true;
    while (i <= text.size()) {
      std::size_t nl = text.find('\n', i);
      if (nl == std::string::npos) nl = text.size();
      std::string line = text.substr(i, nl - i);
      if (!first || first_too) {
        std::size_t k = 0;
        while (k < from.size() && k < line.size() && line[k] == from[k]) ++k;
        line = line.substr(k);
        if (!line.empty()) line = to + line;
      } else {
        line = to + line;
      }
      out += line;
      if (nl < text.size()) out += "\n";
      first = false;
      i = nl + 1;
    }
    return out;
  }

  void apply_training() {
    for (const auto& [node, why] : step_failures_) {
      diag(Diag::MsTrainingStep, node, "training step not converted: " + why,
           "write it as: def forward_fn(x, y): loss = ...; return loss; grad_fn = ms.value_and_grad(forward_fn, None, "
           "optimizer.parameters); loss, grads = grad_fn(x, y); optimizer(grads)");
      unconverted("training");
    }
    for (const Step& st : steps_) {
      const std::uint32_t block_begin = t_.at(st.block).begin;
      const std::string body_indent = indent_of(t_.at(st.first).begin);
      const int anchor = st.loop >= 0 ? st.loop : st.zero;
      const std::string def_indent = indent_of(t_.at(anchor).begin);
      // names bound before the forward statements inside the loop become forward_fn's parameters
      std::set<std::string> local;
      if (st.loop >= 0 && type(st.loop) == "for_statement") {
        std::vector<std::string> l;
        read_names(t_.child(st.loop, "left"), l);
        local.insert(l.begin(), l.end());
      }
      for (int c : t_.named_children(st.block)) {
        if (t_.at(c).begin >= t_.at(st.zero).begin) break;
        for (const std::string& nm : assigned_names(c)) local.insert(nm);
      }
      std::set<std::string> assigned;
      std::vector<std::string> params;
      for (int x : st.forward) {
        std::vector<std::string> reads;
        read_names(x, reads);
        for (const std::string& r : reads)
          if (local.count(r) && !assigned.count(r) && std::find(params.begin(), params.end(), r) == params.end())
            params.push_back(r);
        for (const std::string& nm : assigned_names(x)) assigned.insert(nm);
      }
      // outputs used after the backward statement (in the enclosing function or module)
      int scope = st.block;
      while (scope >= 0 && type(scope) != "function_definition" && type(scope) != "module") scope = t_.at(scope).parent;
      std::vector<std::string> later;
      std::function<void(int)> uses = [&](int x) {
        if (t_.at(x).end <= t_.at(st.backward).end) {
          if (t_.at(x).begin >= t_.at(st.backward).end) {
          } else {
            for (int c : t_.children(x)) uses(c);
          }
          return;
        }
        if (t_.at(x).begin >= t_.at(st.backward).end) {
          read_names(x, later);
          return;
        }
        for (int c : t_.children(x)) uses(c);
      };
      if (scope >= 0) uses(scope);
      std::vector<std::string> aux;
      for (int x : st.forward)
        for (const std::string& nm : assigned_names(x))
          if (nm != st.loss && std::find(later.begin(), later.end(), nm) != later.end() &&
              std::find(aux.begin(), aux.end(), nm) == aux.end())
            aux.push_back(nm);
      const std::string fwd = fresh("forward_fn"), grad = fresh("grad_fn"), grads = fresh("grads");
      std::string args;
      for (const std::string& p : params) args += (args.empty() ? "" : ", ") + p;
      std::string outs = st.loss, aux_outs;
      for (const std::string& x : aux) aux_outs += ", " + x;
      outs += aux_outs;
      // the definition, before the loop (or before zero_grad)
      std::string def = "def " + fwd + "(" + args + "):\n";
      for (int x : st.forward) {  // each statement at its own depth (an autocast body is one deeper)
        def += reindent(render(x), indent_of(t_.at(x).begin), def_indent + "    ", false) + "\n";
      }
      // with a loss scaler, the forward function returns the scaled loss (its gradients are scaled)
      def += def_indent + "    return " + (st.scaler.empty() ? st.loss : st.scaler + ".scale(" + st.loss + ")") +
             aux_outs + "\n";
      def += def_indent + grad + " = " + emit("mindspore.value_and_grad") + "(" + fwd + ", None, " + st.optimizer +
             "." + "parameters" + (aux.empty() ? "" : ", has_aux=True") + ")\n" + def_indent;
      const std::uint32_t at = t_.at(anchor).begin;
      std::string use = (aux.empty() ? st.loss : "(" + outs + ")") + ", " + grads + " = " + grad + "(" + args + ")";
      std::string step_text = st.optimizer + "(" + grads + ")";
      if (!st.scaler.empty()) {
        // the loss scaler's step: unscale, check, step only with finite gradients, adjust the scale
        use += "\n" + body_indent + st.loss + " = " + st.scaler + ".unscale(" + st.loss + ")";
        use += "\n" + body_indent + grads + " = " + st.scaler + ".unscale(" + grads + ")";
        const std::string fin = fresh("is_finite");
        step_text = fin + " = " + emit("mindspore.amp.all_finite") + "(" + grads + ")\n" + body_indent + "if " + fin +
                    ":\n" + body_indent + "    " + st.optimizer + "(" + grads + ")\n" + body_indent + st.scaler +
                    ".adjust(" + fin + ")";
      }
      bool ok = true;
      const std::vector<LocalEdit> before = edits_;
      bool new_scaler = false, new_net = false;
      std::string amp_note;
      if (st.scaler_ctor >= 0 && !scalers_done_.count(st.scaler_ctor)) {
        ok = replace_region(t_.at(st.scaler_ctor).begin, t_.at(st.scaler_ctor).end,
                            emit("mindspore.amp.DynamicLossScaler") + "(scale_value=" + st.scale_value +
                                ", scale_factor=" + st.scale_factor + ", scale_window=" + st.scale_window + ")") &&
             ok;
        scalers_done_.insert(st.scaler_ctor);
        new_scaler = true;
      }
      if (!st.scaler.empty())
        amp_note += "the GradScaler is a DynamicLossScaler (scale_value=" + st.scale_value +
                    ", scale_factor=" + st.scale_factor + ", scale_window=" + st.scale_window +
                    "): the optimizer steps only when amp.all_finite(grads); ";
      if (st.amp_with >= 0 && !nets_done_.count(st.net)) {
        // the network is wrapped once, after the statement that builds it (else before the step)
        const std::string wrap = st.net + " = " + emit("mindspore.amp.auto_mixed_precision") + "(" + st.net + ", 'O1')";
        std::optional<std::pair<std::uint32_t, std::uint32_t>> lines;
        if (st.net_stmt >= 0) lines = whole_lines(st.net_stmt);
        if (lines) {
          ok = add(lines->second, lines->second, indent_of(t_.at(st.net_stmt).begin) + wrap + "\n") && ok;
          amp_note += "autocast's block is gone: " + st.net + " is wrapped by auto_mixed_precision(" + st.net +
                      ", 'O1') after line " + std::to_string(t_.at(st.net_stmt).line) +
                      ", so all of its forward runs in mixed precision";
        } else {
          def = wrap + "\n" + def_indent + def;
          amp_note += "autocast's block is gone: " + st.net + " is wrapped by auto_mixed_precision(" + st.net +
                      ", 'O1') before the step; where the step runs more than once, move it to where the network "
                      "is built";
        }
        nets_done_.insert(st.net);
        new_net = true;
      } else if (st.amp_with >= 0) {
        amp_note += "autocast's block is gone: " + st.net + " is already wrapped by auto_mixed_precision";
      }
      if (st.loop >= 0) {
        // zero_grad goes (its whole line); the definition goes before the loop
        if (auto lines = whole_lines(st.zero)) ok = add(lines->first, lines->second, "") && ok;
        else ok = replace_node(st.zero, "pass") && ok;
        ok = add(at, at, def) && ok;
      } else {
        // no loop: the definition takes zero_grad's place
        ok = replace_node(st.zero, def.substr(0, def.size() - def_indent.size() - 1)) && ok;
      }
      ok = replace_region(t_.at(st.first).begin, t_.at(st.backward).end, use) && ok;
      ok = replace_region(t_.at(st.step).begin, t_.at(st.step).end, step_text) && ok;
      for (int x : {st.update, st.unscale}) {
        if (x < 0) continue;
        if (auto lines = whole_lines(x)) ok = add(lines->first, lines->second, "") && ok;
        else ok = replace_node(x, "pass") && ok;
      }
      if (st.clip >= 0)
        ok = replace_region(
                 t_.at(st.clip).begin, t_.at(st.clip).end,
                 grads + " = " + emit("mindspore.ops.clip_by_global_norm") + "(" + grads + ", " + st.max_norm + ")") &&
             ok;
      (void)block_begin;
      if (!ok) {  // all or nothing: the step stays as written
        edits_ = before;
        if (new_scaler) scalers_done_.erase(st.scaler_ctor);
        if (new_net) nets_done_.erase(st.net);
        diag(Diag::MsTrainingStep, st.backward, "training step not converted: its edits overlap others",
             "convert it by hand (see FRY1702)");
        unconverted("training");
        continue;
      }
      f_.count_converted("diff");
      if (!st.scaler.empty() || st.amp_with >= 0) {
        diag(Diag::MsAmpStepConverted, st.backward,
             "mixed-precision training step → " + fwd + " + ms.value_and_grad + " + st.optimizer + "(" + grads + ")",
             amp_note.substr(0, amp_note.size() - (amp_note.size() >= 2 && amp_note.ends_with("; ") ? 2 : 0)));
        used_ms_.insert("mindspore");
        continue;
      }
      diag(Diag::MsTrainingStepConverted, st.backward,
           "training step → " + fwd + " + ms.value_and_grad + " + st.optimizer + "(" + grads + ")",
           ok ? "the forward statements moved into " + fwd + "; gradients are returned, not accumulated"
              : "some edits overlapped: review the step");
      used_ms_.insert("mindspore");
    }
  }

  // ----- DistributedDataParallel ---------------------------------------------------------------
  // `m = DDP(net, device_ids=...)`: MindSpore's data parallelism is a context, not a wrapper; the
  // statement statements that wrap a name (or attribute) are planned here, before visit, so that
  // visit leaves their call alone.
  void plan_ddp(int n) {
    if (type(n) == "expression_statement" && !excluded(n)) {
      const std::vector<int> k = t_.named_children(n);
      if (k.size() == 1 && type(k[0]) == "assignment" && t_.child(k[0], "type") < 0) {
        const int right = t_.child(k[0], "right");
        if (right >= 0 && type(right) == "call" &&
            resolve(t_.child(right, "function")) == "torch.nn.parallel.DistributedDataParallel") {
          const Args a = arguments(right);
          if (!a.splat && !a.positional.empty() && a.positional.size() <= 1 &&
              (type(a.positional[0]) == "identifier" || type(a.positional[0]) == "attribute") &&
              !a.keywords.count("module")) {
            ddp_.push_back({n, right, a.positional[0]});
            consumed_.insert(right);
          }
        }
      }
      return;
    }
    for (int c : t_.children(n)) plan_ddp(c);
  }
  void apply_ddp() {
    for (const Ddp& d : ddp_) {
      const int assign = t_.named_children(d.stmt)[0];
      const std::string left(text(t_.child(assign, "left"))), net(text(d.net));
      const std::string ctx = emit("mindspore.set_auto_parallel_context") +
                              "(parallel_mode=" + quoted("data_parallel") + ", gradients_mean=True)";
      const bool first = !ddp_context_done_;
      bool ok;
      if (left == net) {  // model = DDP(model, ...): the statement goes (the first becomes the context)
        ok = first ? replace_region(t_.at(d.stmt).begin, t_.at(d.stmt).end, ctx) : remove_statement(d.stmt, true);
      } else {
        ok = replace_region(t_.at(d.call).begin, t_.at(d.call).end, net);
        if (ok && first) {
          const std::uint32_t ls = line_start(t_.at(d.stmt).begin);
          ok = add(ls, ls, indent_of(t_.at(d.stmt).begin) + ctx + "\n");
        }
      }
      if (!ok) {
        diag(Diag::MsUnsupported, d.call, "DistributedDataParallel left as written: its edits overlap others",
             "drop the wrapper; call ms.set_auto_parallel_context(parallel_mode='data_parallel', "
             "gradients_mean=True) once after init()");
        unconverted("unsupported");
        keep_alias(t_.child(d.call, "function"));
        continue;
      }
      if (first) ddp_context_done_ = true;
      f_.count_converted("diff");
      used_aliases_.insert(head_alias(t_.child(d.call, "function")));
      diag(Diag::MsDdpDropped, d.call, "DistributedDataParallel(" + net + ") → " + net,
           first ? std::string("data parallelism is set once: ms.set_auto_parallel_context(parallel_mode="
                               "'data_parallel', gradients_mean=True), here; DDP's keywords are gone; "
                               "a .module attribute of the wrapper is the network itself")
                 : std::string("the data-parallel context is set at the first DistributedDataParallel of the file"));
    }
  }

  // `x, y = x.to(device), y.to(device)` became `x, y = x, y`: the statement goes.
  void drop_self_assignments(int n) {
    if (type(n) == "expression_statement") {
      const std::vector<int> k = t_.named_children(n);
      if (k.size() == 1 && type(k[0]) == "assignment") {
        const int left = t_.child(k[0], "left"), right = t_.child(k[0], "right");
        if (left >= 0 && right >= 0 && t_.child(k[0], "type") < 0) {
          std::string r = render(right), l(text(left));
          std::erase(r, ' ');
          std::erase(l, ' ');
          if (r == l && render(right) != text(right)) remove_statement(n, true);
        }
      }
      return;
    }
    for (int c : t_.children(n)) drop_self_assignments(c);
  }

  // The body of `with torch.no_grad():` (inference_mode, enable_grad), or -1.
  int no_grad_body(int x) const {
    if (type(x) != "with_statement" || excluded(x)) return -1;
    int clause = -1;
    for (int c : t_.named_children(x))
      if (type(c) == "with_clause") clause = c;
    if (clause < 0) return -1;
    const std::vector<int> items = t_.named_children(clause);
    if (items.size() != 1) return -1;
    const int value = t_.child(items[0], "value");
    if (value < 0 || type(value) != "call" || !t_.named_children(t_.child(value, "arguments")).empty()) return -1;
    const std::string r = resolve(t_.child(value, "function"));
    if (r != "torch.no_grad" && r != "torch.inference_mode" && r != "torch.enable_grad") return -1;
    const int body = t_.child(x, "body");
    if (body < 0 || t_.at(body).line == t_.at(x).line) return -1;
    return body;
  }

  // with torch.no_grad(): body → body, one level less indented (inner statements first).
  void apply_no_grad() {
    for (int x : no_grad_withs_) {
      const int body = no_grad_body(x);
      const std::string with_indent = indent_of(t_.at(x).begin);
      const std::string body_indent = indent_of(t_.at(body).begin);
      // from the line after the header (comments before the first statement come along)
      std::uint32_t from = line_start(t_.at(body).begin);
      if (const std::size_t nl = src_.find('\n', t_.at(x).begin); nl != std::string_view::npos && nl + 1 < from)
        from = static_cast<std::uint32_t>(nl + 1);
      const std::string inner = render(from, t_.at(body).end);
      // the with's own indentation is already in the file before t_.at(x).begin
      const std::string out = reindent(inner, body_indent, with_indent, true).substr(with_indent.size());
      if (replace_region(t_.at(x).begin, t_.at(x).end, out)) {
        int v = t_.named_children(x)[0];
        used_aliases_.insert(head_alias(t_.child(t_.child(t_.named_children(v)[0], "value"), "function")));
        if (const Mapping* m = tab_.find("torch.no_grad")) converted(*m, x);
      } else {
        diag(Diag::MsUnsupported, x, "with torch.no_grad(): left as written", "remove the with and dedent its body");
        keep_alias(t_.child(t_.child(t_.named_children(t_.named_children(x)[0])[0], "value"), "function"));
      }
    }
  }

  // ms.set_device("Ascend") (2.5+) or ms.set_context(device_target=...) at the top of the
  // `if __name__ == "__main__":` block of a script that used devices.
  void set_device_context() {
    if (!device_used_) return;
    for (int st : t_.named_children(t_.root())) {
      if (type(st) != "if_statement") continue;
      const std::string cond(text(t_.child(st, "condition")));
      if (cond.find("__name__") == std::string::npos || cond.find("__main__") == std::string::npos) continue;
      const int body = t_.child(st, "consequence");
      if (body < 0) return;
      const std::vector<int> stmts = t_.named_children(body);
      if (stmts.empty()) return;
      const std::uint32_t at = t_.at(stmts[0]).begin;
      const std::string ind = indent_of(at);
      const std::string call = s_.minor >= 5
                                   ? emit("mindspore.set_device") + "(\"" + s_.device_target + "\")"
                                   : emit("mindspore.set_context") + "(device_target=\"" + s_.device_target + "\")";
      if (add(at, at, call + "\n" + ind))
        diag(Diag::MsDevice, stmts[0], "device context set for the script: " + s_.device_target,
             "--device-target chooses Ascend, GPU or CPU; --mindspore-version below 2.5 writes ms.set_context");
      return;
    }
  }

  // ----- the import block -------------------------------------------------------------------
  struct Spelling {
    std::string prefix, alias, import_line, fallback_import;
  };
  std::vector<Spelling> spellings() const {
    return {
        {"mindspore.dataset", "ds", "import mindspore.dataset as ds", "import mindspore.dataset"},
        {"mindspore.nn", "nn", "from mindspore import nn", "import mindspore.nn"},
        {"mindspore.ops", "ops", "from mindspore import ops", "import mindspore.ops"},
        {"mindspore.mint", "mint", "from mindspore import mint", "import mindspore.mint"},
        {"mindspore", "ms", "import mindspore as ms", "import mindspore"},
    };
  }

  void finish_imports() {
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
  static bool prefix_of(const std::string& p, const std::string& n) {
    return n == p || (n.size() > p.size() && n.rfind(p, 0) == 0 && n[p.size()] == '.');
  }
  std::string best_prefix(const std::string& n) const {
    for (const Spelling& sp : spellings())
      if (prefix_of(sp.prefix, n)) return sp.prefix;
    return {};
  }
  static void collect_emitted(const std::string& text, std::set<std::string>& out) {
    for (std::size_t i = text.find('\x01'); i != std::string::npos; i = text.find('\x01', i + 1)) {
      const std::size_t e = text.find('\x02', i);
      if (e == std::string::npos) break;
      out.insert(text.substr(i + 1, e - i - 1));
    }
  }
  std::string spell(const std::string& n) const {
    const std::string p = best_prefix(n);
    auto it = short_.find(p);
    if (it == short_.end() || !it->second) return n;
    for (const Spelling& sp : spellings())
      if (sp.prefix == p) return sp.alias + n.substr(p.size());
    return n;
  }
  std::string spell_all(const std::string& text) const {
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

  FileMigration& f_;
  const pyparse::Tree& t_;
  const Tables& tab_;
  Settings s_;
  std::string_view src_;
  std::vector<LocalEdit> edits_;
  std::uint32_t seq_ = 0;
  std::set<std::uint32_t> excluded_;
  pyparse::Imports imp_;  // torch imports and aliases
  std::set<std::string> kept_aliases_, used_aliases_, other_identifiers_, taken_, used_ms_;
  std::set<std::string> cell_classes_, optimizers_;
  std::set<int> cell_class_nodes_, consumed_, scalers_done_;
  std::set<std::string> nets_done_;
  struct Ddp {
    int stmt, call, net;
  };
  std::vector<Ddp> ddp_;
  bool ddp_context_done_ = false;
  std::map<int, std::string> cell_method_;                  // Cell class node -> forward | call
  std::map<std::string, std::string> cell_method_by_name_;  // the same by class name
  std::vector<int> current_cell_, no_grad_withs_;
  std::vector<Step> steps_;
  std::vector<std::pair<int, std::string>> step_failures_;
  bool device_used_ = false;
  bool torch_file_ = false;  // some import binds a PyTorch module
  char quote_ = '"';         // the quote a string literal written now uses
  std::map<std::string, bool> short_;
  std::map<int, std::vector<std::uint32_t>> removed_;  // block -> removal edits (seq) of its statements
};

}  // namespace

void convert_python(migrate::FileMigration& file, const Settings& settings) {
  std::string error;
  const std::optional<pyparse::Tree> tree = pyparse::Tree::parse(file.source(), &error);
  if (!tree) {
    file.diag_at_line(Diag::MsNoParser, 1, 1, "the mindspore target cannot read Python: " + error,
                      "install libtree-sitter-dev and npm, then rebuild ferry (make deps && make build)");
    return;
  }
  if (!tree->first_error().empty()) {
    file.diag_at_line(Diag::MsSyntax, 1, 1,
                      "not converted: the file does not parse as Python (" + tree->first_error() + ")",
                      "fix the syntax (Python 3), or exclude the file");
    return;
  }
  Converter(file, *tree, Tables::builtin(), settings).run();
}

}  // namespace ferry::targets::mindspore
