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
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

void Converter::run() {
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

bool Converter::add(std::uint32_t b, std::uint32_t e, std::string text) {
  for (const LocalEdit& x : edits_) {
    if (b == e && x.begin == x.end) continue;
    if (b == e ? (x.begin < b && b < x.end)
               : (x.begin == x.end ? (b < x.begin && x.begin < e) : (b < x.end && x.begin < e)))
      return false;
  }
  edits_.push_back({b, e, std::move(text), seq_++});
  return true;
}

// The source of [b, e) with the edits inside it applied.
std::string Converter::render(std::uint32_t b, std::uint32_t e) const {
  std::vector<const LocalEdit*> in;
  for (const LocalEdit& x : edits_)
    if (x.begin >= b && x.end <= e && !(x.begin == x.end && (x.begin == b || x.begin == e) && b != e)) in.push_back(&x);
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

// Replaces [b, e) by `text`, dropping the edits inside it (the caller rendered them into text).
bool Converter::replace_region(std::uint32_t b, std::uint32_t e, std::string text) {
  for (const LocalEdit& x : edits_)
    if (!(x.begin >= b && x.end <= e) && x.begin < e && b < x.end) return false;
  std::erase_if(edits_, [&](const LocalEdit& x) {
    return x.begin >= b && x.end <= e && !(x.begin == x.end && (x.begin == b || x.begin == e));
  });
  return add(b, e, std::move(text));
}

void Converter::commit() {
  std::sort(edits_.begin(), edits_.end(), [](const LocalEdit& a, const LocalEdit& c) {
    return a.begin != c.begin ? a.begin < c.begin : a.seq < c.seq;
  });
  for (LocalEdit& x : edits_) f_.replace_bytes(x.begin, x.end, spell_all(x.text));
}

void Converter::diag(Diag code, int n, std::string msg, std::string hint) {
  f_.diag_at_line(code, t_.at(n).line, t_.at(n).col, std::move(msg), std::move(hint));
}

// TensorFlow / Keras uses are counted apart ("tf_same", "tf_diff", ...), so that the PyTorch figures
// of a file that uses both stay the PyTorch figures.
std::string Converter::family(std::string_view name, std::string_view f) {
  return (name.rfind("tf.", 0) == 0 ? "tf_" : "") + std::string(f);
}

void Converter::converted(const Mapping& m, int n) {
  if (m.status == Status::Same) f_.count_converted(family(m.torch, "same"));
  else {
    f_.count_converted(family(m.torch, "diff"));
    diag(Diag::MsChange, n, m.torch + " → " + (m.ms.empty() ? std::string("(removed)") : m.ms),
         m.note.empty() ? std::string("see docs/targets.md#mindspore") : m.note);
  }
}

// [line start, end of line incl. '\n') of a statement alone on its lines, or nullopt.
std::optional<std::pair<std::uint32_t, std::uint32_t>> Converter::whole_lines(int n) const {
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
bool Converter::remove_statement(int n, bool region) {
  const auto lines = whole_lines(n);
  if (!lines) return false;
  const std::uint32_t id = seq_;
  if (!(region ? replace_region(lines->first, lines->second, "") : add(lines->first, lines->second, ""))) return false;
  const int p = t_.at(n).parent;
  if (p >= 0 && type(p) == "block") removed_[p].push_back(id);
  return true;
}

// The call of `with CALL:` (the value of its one item; `as NAME` or not) whose body is on its
// own lines, or -1 (also for an excluded statement).
int Converter::with_call(int x) const {
  if (type(x) != "with_statement" || excluded(x)) return -1;
  int clause = -1;
  for (int c : t_.named_children(x))
    if (type(c) == "with_clause") clause = c;
  if (clause < 0) return -1;
  const std::vector<int> items = t_.named_children(clause);
  if (items.size() != 1) return -1;
  const int value = t_.child(items[0], "value");
  if (value < 0 || type(value) != "call") return -1;
  const int body = t_.child(x, "body");
  if (body < 0 || t_.at(body).line == t_.at(x).line) return -1;
  return value;
}

void Converter::finish_blocks() {
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

}  // namespace ferry::targets::mindspore::convert_detail

namespace ferry::targets::mindspore {

void convert_python(migrate::FileMigration& file, const Settings& settings) {
  const std::optional<pyparse::Tree> tree = parse_script(file, "mindspore");
  if (tree) convert_detail::Converter(file, *tree, Tables::builtin(), settings).run();
}

}  // namespace ferry::targets::mindspore
