// The training step: zero_grad / forward / loss.backward() / step become forward_fn,
// value_and_grad and optimizer(grads) (FRY4704), with AMP (autocast, GradScaler) and gradient
// clipping; any other shape is reported (FRY1702).
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

// The call of `with torch.autocast(...)` (torch.cuda.amp.autocast, torch.amp.autocast) with one
// item and a body on its own lines, or -1.
int Converter::autocast_call(int x) const {
  const int value = with_call(x);
  if (value < 0) return -1;
  const std::string r = resolve(t_.child(value, "function"));
  if (r != "torch.autocast" && r != "torch.cuda.amp.autocast" && r != "torch.amp.autocast") return -1;
  return value;
}

// Why autocast(...)'s arguments keep it from becoming auto_mixed_precision(net, 'O1'), or "".
std::string Converter::autocast_args_problem(int call_node) const {
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
int Converter::find_scaler_ctor(int n, const std::string& name) const {
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
int Converter::find_net_stmt(int n, const std::string& name) const {
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
std::string Converter::scaler_args(int call_node, Step& st) const {
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
bool Converter::between_statement(int st, int& clip, std::string& max_norm) const {
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
bool Converter::stmt_method(int st, std::string& receiver, std::string& method, int* call_out) const {
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

void Converter::plan_training(int n) {
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

void Converter::plan_block(int block) {
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

std::vector<std::string> Converter::assigned_names(int st) const {
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

void Converter::read_names(int x, std::vector<std::string>& out) const {
  if (type(x) == "identifier") {
    const int p = t_.at(x).parent;
    if (!(type(p) == "attribute" && t_.child(p, "attribute") == x) &&
        !(type(p) == "keyword_argument" && t_.child(p, "name") == x))
      out.emplace_back(text(x));
    return;
  }
  for (int c : t_.children(x)) read_names(c, out);
}

std::string Converter::fresh(const std::string& base) {
  std::string name = base;
  for (int k = 2; other_identifiers_.count(name) || taken_.count(name); ++k) name = base + "_" + std::to_string(k);
  taken_.insert(name);
  return name;
}

// Every line of `text` loses the prefix `from` (as much of it as it has) and gains `to`; the first
// line too when `first_too`, else it is taken as it is (it starts after its indentation).
std::string Converter::reindent(const std::string& text, const std::string& from, const std::string& to,
                                bool first_too) {
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

void Converter::apply_training() {
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
    def += def_indent + grad + " = " + emit("mindspore.value_and_grad") + "(" + fwd + ", None, " + st.optimizer + "." +
           "parameters" + (aux.empty() ? "" : ", has_aux=True") + ")\n" + def_indent;
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

}  // namespace ferry::targets::mindspore::convert_detail
