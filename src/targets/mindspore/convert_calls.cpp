// Calls: a row's keyword operations on the arguments (checked against the MindSpore API table),
// Tensor / Module methods, the calls that change shape (devices, checkpoints) and DataLoader.
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

// Removes the arguments `gone` of the list with their commas: each run of neighbours at once.
void Converter::drop_arguments(const Args& a, const std::set<int>& gone) {
  for (const auto& [b, e] : pyparse::argument_removals(t_, a, gone)) add(b, e, "");
}

std::string Converter::expand(const std::string& expr, const Args& a) const {
  return expand_arguments(expr, a, t_, [&](int n) { return render(n); });
}

// Applies the row's keyword operations to the call's arguments, if every keyword the result
// passes is a parameter of `ms` in the API table; false (nothing changed, FRY1705) otherwise.
bool Converter::rewrite_arguments(int call_node, const Mapping& m, const std::string& ms) {
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
      case ArgOp::Kind::Add: break;  // written below
      default: break;                // never in a mindspore row (Tables rejects them)
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

void Converter::call(int n) {
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

const Mapping* Converter::method_row(std::string_view name) const {
  for (std::string_view cls : {"torch.Tensor.", "torch.nn.Module.", "torch.optim.Optimizer."})
    if (const Mapping* m = tab_.find(std::string(cls) + std::string(name))) return m;
  return nullptr;
}

bool Converter::is_device_arg(int n) const {
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
bool Converter::method_call(int n, int fn) {
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

std::string Converter::device_literal(int arg) const {
  if (arg >= 0 && type(arg) == "string") {
    const std::string_view s = text(arg);
    if (s.find("cpu") != std::string_view::npos) return quoted("CPU");
  }
  return quoted(s_.device_target);
}

// Calls whose conversion is structural; true when handled (converted or diagnosed).
bool Converter::special_call(int n, const Mapping& m) {
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
        replace_region(t_.at(n).begin, t_.at(n).end,
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

bool Converter::data_loader(int n, const Args& a, const Mapping& m) {
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

}  // namespace ferry::targets::mindspore::convert_detail
