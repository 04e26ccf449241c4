// The walk over the tree: nn.Module subclasses become Cells (forward → construct), Dataset
// subclasses lose their base, and each reference to a torch name is respelled or reported.
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

void Converter::collect_cell_classes() {
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

void Converter::visit(int n) {
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

void Converter::class_definition(int n) {
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
void Converter::reference(int n, const std::string& q, int call_node) {
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

void Converter::unsupported(int n, const std::string& q, const Mapping* m, int call_node) {
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

}  // namespace ferry::targets::mindspore::convert_detail
