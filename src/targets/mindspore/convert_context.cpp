// What MindSpore sets as a context or drops: DistributedDataParallel (a data-parallel context),
// `with torch.no_grad():` and @torch.no_grad(), self-assignments left by removed calls, and the
// device context set in __main__.
#include "targets/mindspore/converter.h"

namespace ferry::targets::mindspore::convert_detail {

// `m = DDP(net, device_ids=...)`: MindSpore's data parallelism is a context, not a wrapper; the
// statement statements that wrap a name (or attribute) are planned here, before visit, so that
// visit leaves their call alone.
void Converter::plan_ddp(int n) {
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

void Converter::apply_ddp() {
  for (const Ddp& d : ddp_) {
    const int assign = t_.named_children(d.stmt)[0];
    const std::string left(text(t_.child(assign, "left"))), net(text(d.net));
    const std::string ctx = emit("mindspore.set_auto_parallel_context") + "(parallel_mode=" + quoted("data_parallel") +
                            ", gradients_mean=True)";
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
void Converter::drop_self_assignments(int n) {
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
int Converter::no_grad_body(int x) const {
  const int value = with_call(x);
  if (value < 0 || !t_.named_children(t_.child(value, "arguments")).empty()) return -1;
  const std::string r = resolve(t_.child(value, "function"));
  if (r != "torch.no_grad" && r != "torch.inference_mode" && r != "torch.enable_grad") return -1;
  return t_.child(x, "body");
}

// with torch.no_grad(): body → body, one level less indented (inner statements first).
void Converter::apply_no_grad() {
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
void Converter::set_device_context() {
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

}  // namespace ferry::targets::mindspore::convert_detail
